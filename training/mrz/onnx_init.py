"""Loads the weights of an exported recogniser (train.py's ONNX) back into the torch model.

Stage 3 starts from the committed ONNX file (stage 2's only surviving form: its .pt was never
committed). The export folded every batch norm into the convolution before it (weights scaled,
a bias added), so each batch norm is loaded as the identity followed by that bias: running mean
0, running variance 1 - eps, scale 1, shift = the folded bias. The network then computes exactly
what the ONNX file does as long as the batch norms use their running statistics, so a run
started from ONNX keeps them frozen (train.py `freeze_batch_norm`): a batch norm switched to
batch statistics would renormalise every channel and undo what stage 2 learnt.

ONNX's LSTM stores gates in the order input, output, forget, cell and both biases in one
tensor; torch's in the order input, forget, cell, output with two bias tensors.
"""

import numpy as np
import onnx
import torch
from onnx import numpy_helper

# ONNX gate order (i, o, f, c) -> torch gate order (i, f, c, o): the ONNX chunk for each torch gate.
ONNX_TO_TORCH_GATES = [0, 2, 3, 1]


def _gates(w: np.ndarray, hidden: int) -> np.ndarray:
    chunks = [w[k * hidden : (k + 1) * hidden] for k in range(4)]
    return np.concatenate([chunks[k] for k in ONNX_TO_TORCH_GATES], axis=0)


def load_onnx_weights(model: torch.nn.Module, path: str) -> None:
    """Copies the initialisers of `path` into `model` (train.Crnn), matched by graph order."""
    graph = onnx.load(path).graph
    init = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    convs = [n for n in graph.node if n.op_type == "Conv"]
    lstm = next(n for n in graph.node if n.op_type == "LSTM")
    matmul = next(n for n in graph.node if n.op_type == "MatMul")
    add = next(n for n in graph.node if n.op_type == "Add" and any(i in init for i in n.input))

    modules = list(model.cnn)
    pairs = [
        (m, modules[i + 1])
        for i, m in enumerate(modules)
        if isinstance(m, torch.nn.Conv2d) and isinstance(modules[i + 1], torch.nn.BatchNorm2d)
    ]
    if len(pairs) != len(convs):
        raise ValueError(f"{path}: {len(convs)} convolutions, the model has {len(pairs)}")
    with torch.no_grad():
        for (conv, bn), node in zip(pairs, convs):
            w, b = init[node.input[1]].copy(), init[node.input[2]].copy()
            if tuple(conv.weight.shape) != w.shape:
                raise ValueError(f"{path}: convolution {tuple(w.shape)} for {tuple(conv.weight.shape)}")
            conv.weight.copy_(torch.from_numpy(w))
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(b))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)

        rnn = model.rnn
        hidden = rnn.hidden_size
        W, R, B = (init[lstm.input[k]].copy() for k in (1, 2, 3))
        for d, suffix in enumerate(["", "_reverse"]):
            getattr(rnn, f"weight_ih_l0{suffix}").copy_(torch.from_numpy(_gates(W[d], hidden)))
            getattr(rnn, f"weight_hh_l0{suffix}").copy_(torch.from_numpy(_gates(R[d], hidden)))
            getattr(rnn, f"bias_ih_l0{suffix}").copy_(torch.from_numpy(_gates(B[d][: 4 * hidden], hidden)))
            getattr(rnn, f"bias_hh_l0{suffix}").copy_(torch.from_numpy(_gates(B[d][4 * hidden :], hidden)))

        model.fc.weight.copy_(torch.from_numpy(init[matmul.input[1]].T.copy()))
        model.fc.bias.copy_(torch.from_numpy(next(init[i] for i in add.input if i in init).copy()))


def freeze_batch_norm(model: torch.nn.Module) -> None:
    """Batch norms keep their running statistics while the rest trains (see the module's note)."""
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.eval()
