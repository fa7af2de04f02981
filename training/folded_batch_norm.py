"""Loading a committed ONNX export back into its torch network, shared by the recipes.

Every export folds each batch norm into the convolution before it (weights scaled, a bias
added), and only the ONNX file of a run is kept. A run that starts from such a file loads each
batch norm as the identity followed by that bias: running mean 0, running variance 1 - eps,
scale 1, shift = the folded bias. The network then computes exactly what the file does as long
as the batch norms use their running statistics, so such a run keeps them frozen
(`freeze_batch_norm`): a batch norm switched to batch statistics would renormalise every
channel and undo what the earlier run learnt.
"""

import torch


def load_folded_convs(pairs, conv_nodes, init, path: str) -> None:
    """Copies each Conv node's weights into its (Conv2d, BatchNorm2d) pair, in graph order.

    `pairs` are the network's convolutions each with the batch norm after it, `conv_nodes` the
    graph's Conv nodes, `init` its initialisers by name; `path` names the file in errors."""
    if len(pairs) != len(conv_nodes):
        raise ValueError(f"{path}: {len(conv_nodes)} convolutions, the model has {len(pairs)}")
    with torch.no_grad():
        for (conv, bn), node in zip(pairs, conv_nodes):
            w, b = init[node.input[1]].copy(), init[node.input[2]].copy()
            if tuple(conv.weight.shape) != w.shape:
                raise ValueError(f"{path}: convolution {tuple(w.shape)} for {tuple(conv.weight.shape)}")
            conv.weight.copy_(torch.from_numpy(w))
            bn.weight.fill_(1.0)
            bn.bias.copy_(torch.from_numpy(b))
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)


def freeze_batch_norm(model: torch.nn.Module) -> None:
    """Batch norms keep their running statistics while the rest trains (see the module's note)."""
    for m in model.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.eval()
