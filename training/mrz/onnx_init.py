"""Loads the weights of an exported recogniser (train.py's ONNX) back into the torch model.

Stage 3 starts from the committed ONNX file (stage 2's only surviving form: its .pt was never
committed). The convolutions and their folded batch norms load as `training/folded_batch_norm.py`
describes (shared with the portrait recipe); a run started from ONNX keeps the batch norms
frozen (`freeze_batch_norm`), or it would undo what stage 2 learnt.

ONNX's LSTM stores gates in the order input, output, forget, cell and both biases in one
tensor; torch's in the order input, forget, cell, output with two bias tensors.
"""

import os
import sys

import numpy as np
import onnx
import torch
from onnx import numpy_helper

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from folded_batch_norm import freeze_batch_norm, load_folded_convs  # noqa: E402, F401

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
    load_folded_convs(pairs, convs, init, path)
    with torch.no_grad():
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

