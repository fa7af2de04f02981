"""Three convolutions of PP-OCR's recogniser's kind (3x3, 1x1, depthwise 3x3 on a 64 x 24 x 240
feature map) written three ways: fp32 as shipped, fp16 weights (Cast in and out), and dynamic
int8 (DynamicQuantizeLinear + ConvInteger, weights symmetric per tensor), the rewrite a
hand-made quantiser would produce (onnxruntime's own quantiser is not installable offline).
Run by conv-precision.ts; seeded.

    /usr/bin/python3 packages/vision/scripts/bench/conv-precision/make_models.py /tmp/conv-precision
"""
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh

out = Path(sys.argv[1] if len(sys.argv) > 1 else '/tmp/conv-precision')
out.mkdir(parents=True, exist_ok=True)
rng = np.random.default_rng(1)


def save(name, nodes, inits):
    graph = h.make_graph(
        nodes, name,
        [h.make_tensor_value_info('x', T.FLOAT, [1, 64, 24, 240])],
        [h.make_tensor_value_info('y', T.FLOAT, [1, None, 24, 240])],
        inits)
    model = h.make_model(graph, opset_imports=[h.make_opsetid('', 13)])
    model.ir_version = 7
    onnx.checker.check_model(model)
    onnx.save(model, str(out / f'{name}.onnx'))


for kind, (cin, cout, ks, group) in {'conv3x3': (64, 128, 3, 1), 'conv1x1': (64, 128, 1, 1), 'dw3x3': (64, 64, 3, 64)}.items():
    W = rng.standard_normal((cout, cin // group, ks, ks)).astype(np.float32) * 0.1
    B = np.zeros(cout, np.float32)
    pads = [ks // 2] * 4
    save(f'{kind}-fp32', [h.make_node('Conv', ['x', 'W', 'B'], ['y'], pads=pads, group=group)],
         [nh.from_array(W, 'W'), nh.from_array(B, 'B')])
    save(f'{kind}-fp16', [
        h.make_node('Cast', ['x'], ['xh'], to=T.FLOAT16),
        h.make_node('Conv', ['xh', 'W', 'B'], ['yh'], pads=pads, group=group),
        h.make_node('Cast', ['yh'], ['y'], to=T.FLOAT),
    ], [nh.from_array(W.astype(np.float16), 'W'), nh.from_array(B.astype(np.float16), 'B')])
    scale = np.abs(W).max() / 127
    Wq = np.clip(np.round(W / scale), -127, 127).astype(np.int8)
    save(f'{kind}-int8', [
        h.make_node('DynamicQuantizeLinear', ['x'], ['xq', 'xs', 'xz']),
        h.make_node('ConvInteger', ['xq', 'Wq', 'xz'], ['yi'], pads=pads, group=group),
        h.make_node('Cast', ['yi'], ['yf'], to=T.FLOAT),
        h.make_node('Mul', ['xs', 'ws'], ['s']),
        h.make_node('Mul', ['yf', 's'], ['y']),
    ], [nh.from_array(Wq, 'Wq'), nh.from_array(np.array(scale, np.float32), 'ws')])
print(f'models written to {out}')
