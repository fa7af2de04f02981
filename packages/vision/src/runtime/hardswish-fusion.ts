import { editedModel, openGraph } from './graph-edit.ts';
import { constantScalar, floatAttr, floatAttrField, type Node, nodeField } from './onnx-nodes.ts';

/**
 * PaddleOCR's PP-OCRv4 models (exported by paddle2onnx at opsets 9 and 11, before HardSwish, opset 14)
 * spell each hard-swish as four passes over the feature map: a = x + 3, c = clip(a, 0, 6),
 * m = x · c, y = m / 6. onnxruntime runs them as four element-wise kernels, and element-wise
 * kernels took about half the recogniser's kernel time (onnxruntime's own profile,
 * scripts/bench/rec-ops.ts). This rewrites each to y = x · HardSigmoid(x; α = 1/6, β = 0.5)
 * (HardSigmoid exists since opset 6): the same function, max(0, min(1, x/6 + 1/2)) · x, in two
 * passes. Anything not exactly of that shape is left as it is.
 */

/**
 * Rewrites every hard-swish of the model (bytes of an ONNX ModelProto) as HardSigmoid · x.
 * Returns the new model and how many were rewritten (0: the bytes unchanged).
 */
export function fuseHardSwish(model: Uint8Array): { bytes: Uint8Array; fused: number } {
  const edit = openGraph(model);
  if (!edit) return { bytes: model, fused: 0 };
  const { nodes, producer, consumers, replaced, dropped } = edit;
  const scalar = (name: string) => {
    const p = producer.get(name);
    return p ? constantScalar(p) : null;
  };
  const only = (name: string) => consumers.get(name) === 1;
  // Clip's bounds: attributes up to opset 10 (the recogniser), constant inputs from 11 (the detector).
  const clipsTo = (clip: Node, lo: number, hi: number) =>
    clip.inputs.length === 3
      ? scalar(clip.inputs[1]!) === lo && scalar(clip.inputs[2]!) === hi
      : floatAttr(clip, 'min') === lo && floatAttr(clip, 'max') === hi;
  let fused = 0;
  for (const div of nodes) {
    if (div.op !== 'Div' || div.inputs.length !== 2 || scalar(div.inputs[1]!) !== 6) continue;
    const mul = producer.get(div.inputs[0]!);
    if (mul?.op !== 'Mul' || mul.inputs.length !== 2 || !only(div.inputs[0]!)) continue;
    const [x, c] = mul.inputs as [string, string];
    const clip = producer.get(c);
    if (clip?.op !== 'Clip' || !only(c) || !clipsTo(clip, 0, 6)) continue;
    const add = producer.get(clip.inputs[0]!);
    if (add?.op !== 'Add' || !only(clip.inputs[0]!) || add.inputs[0] !== x || scalar(add.inputs[1]!) !== 3)
      continue;
    const gate = `${div.outputs[0]}__hardsigmoid`;
    replaced.set(div, [
      nodeField(
        'HardSigmoid',
        `${gate}_node`,
        [x],
        [gate],
        [floatAttrField('alpha', 1 / 6), floatAttrField('beta', 0.5)],
      ),
      nodeField('Mul', `${div.outputs[0]}__hardswish`, [x, gate], [div.outputs[0]!]),
    ]);
    dropped.add(mul).add(clip).add(add);
    fused++;
  }
  if (fused === 0) return { bytes: model, fused: 0 };
  return { bytes: editedModel(edit), fused };
}
