import { editedModel, openGraph } from './graph-edit.ts';
import {
  constantDims,
  constantFloats,
  constantScalar,
  intsAttr,
  type Node,
  stringAttr,
  withConstantFloats,
  withFirstInput,
} from './onnx-nodes.ts';

/**
 * PP-OCRv4's backbone (PPLCNetV3) follows each hard-swish with a learnable affine block,
 * y = s · x + c with scalar s and c: a Mul and an Add over the whole feature map. Where the
 * block feeds a convolution that pads nothing (the 1×1 pointwise convolutions), it folds into
 * that convolution's weights: conv(s · x + c) = (s · W) ∗ x + (b + c · ΣW) per output channel.
 * With padding the fold would not be exact (the padded zeros would become c), so such
 * convolutions (the depthwise ones) are left as they are, as is anything else not of that shape.
 * conv-affine-fold.ts folds the blocks that follow a convolution instead.
 */
export function foldAffineIntoConv(model: Uint8Array): { bytes: Uint8Array; folded: number } {
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
  const padsNothing = (conv: Node) =>
    (intsAttr(conv, 'pads') ?? []).every((p) => p === 0) &&
    ['NOTSET', 'VALID'].includes(stringAttr(conv, 'auto_pad') ?? 'NOTSET');
  let folded = 0;
  for (const mul of nodes) {
    if (mul.op !== 'Mul' || mul.inputs.length !== 2) continue;
    // x: the input that is not the scalar (a scalar times a scalar is left alone).
    const x = mul.inputs.find((i) => scalarBeside(mul, i) !== null && producer.get(i)?.op !== 'Constant');
    if (x === undefined) continue;
    const s = scalarBeside(mul, x)!;
    const add = only(mul.outputs[0]!);
    if (add?.op !== 'Add') continue;
    const c = scalarBeside(add, mul.outputs[0]!);
    const conv = only(add.outputs[0]!);
    if (c === null || conv?.op !== 'Conv' || conv.inputs.length !== 3 || conv.inputs[0] !== add.outputs[0])
      continue;
    if (!padsNothing(conv)) continue;
    const [, w, b] = conv.inputs as [string, string, string];
    const wNode = producer.get(w);
    const bNode = producer.get(b);
    if (!wNode || !bNode || consumers.get(w) !== 1 || consumers.get(b) !== 1) continue;
    const weights = constantFloats(wNode);
    const bias = constantFloats(bNode);
    const outChannels = constantDims(wNode)?.[0];
    if (!weights || !bias || !outChannels || bias.length !== outChannels || weights.length % outChannels)
      continue;
    const perChannel = weights.length / outChannels;
    const newBias = bias.map((v, o) => {
      let sum = 0;
      for (let i = o * perChannel; i < (o + 1) * perChannel; i++) sum += weights[i]!;
      return v + c * sum;
    });
    replaced.set(wNode, [
      withConstantFloats(
        wNode,
        weights.map((v) => s * v),
      ),
    ]);
    replaced.set(bNode, [withConstantFloats(bNode, newBias)]);
    replaced.set(conv, [withFirstInput(conv, x)]);
    dropped.add(mul).add(add);
    folded++;
  }
  if (folded === 0) return { bytes: model, folded: 0 };
  return { bytes: editedModel(edit), folded };
}
