import { editedModel, openGraph } from './graph-edit.ts';
import { constantFloats, constantScalar, type Node, withConstantFloats, withOutput } from './onnx-nodes.ts';

/**
 * PP-OCRv4's backbone (PPLCNetV3) follows each convolution with a learnable affine block,
 * y = s · conv(x) + c with scalar s and c, which paddle2onnx exports as a Mul and an Add over the
 * whole feature map. Both fold into the convolution: weights s · W, bias s · b + c. This does so
 * for every Conv (with a bias, weights and bias constants of its own) whose only reader is such a
 * Mul by a scalar constant, itself read only by an Add of a scalar constant. The outputs change
 * by float rounding only.
 */
export function foldConvAffine(model: Uint8Array): { bytes: Uint8Array; folded: number } {
  const edit = openGraph(model);
  if (!edit) return { bytes: model, folded: 0 };
  const { nodes, producer, consumers, replaced, dropped } = edit;
  const only = edit.soleReader;
  /** The other input of a two-input node when it is a scalar constant. */
  const scalarBeside = (n: Node, value: string) => {
    if (n.inputs.length !== 2) return null;
    const other = n.inputs[0] === value ? n.inputs[1]! : n.inputs[0]!;
    const p = producer.get(other);
    return p && other !== value ? constantScalar(p) : null;
  };
  let folded = 0;
  for (const conv of nodes) {
    if (conv.op !== 'Conv' || conv.inputs.length !== 3) continue;
    const [, w, b] = conv.inputs as [string, string, string];
    const wNode = producer.get(w);
    const bNode = producer.get(b);
    if (!wNode || !bNode || consumers.get(w) !== 1 || consumers.get(b) !== 1) continue;
    const mul = only(conv.outputs[0]!);
    if (mul?.op !== 'Mul') continue;
    const s = scalarBeside(mul, conv.outputs[0]!);
    const add = only(mul.outputs[0]!);
    if (s === null || add?.op !== 'Add') continue;
    const c = scalarBeside(add, mul.outputs[0]!);
    const weights = constantFloats(wNode);
    const bias = constantFloats(bNode);
    if (c === null || !weights || !bias) continue;
    replaced.set(wNode, [
      withConstantFloats(
        wNode,
        weights.map((v) => s * v),
      ),
    ]);
    replaced.set(bNode, [
      withConstantFloats(
        bNode,
        bias.map((v) => s * v + c),
      ),
    ]);
    replaced.set(conv, [withOutput(conv, add.outputs[0]!)]);
    dropped.add(mul).add(add);
    folded++;
  }
  if (folded === 0) return { bytes: model, folded: 0 };
  return { bytes: editedModel(edit), folded };
}
