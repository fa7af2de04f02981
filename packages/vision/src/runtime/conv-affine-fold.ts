import {
  constantFloats,
  constantScalar,
  GRAPH_NODE,
  graphIndex,
  MODEL_GRAPH,
  type Node,
  parseNode,
  withConstantFloats,
  withOutput,
} from './onnx-nodes.ts';
import { type ProtoField, readFields, writeFields } from './proto-fields.ts';

/**
 * PP-OCRv4's backbone (PPLCNetV3) follows each convolution with a learnable affine block,
 * y = s · conv(x) + c with scalar s and c, which paddle2onnx exports as a Mul and an Add over the
 * whole feature map. Both fold into the convolution: weights s · W, bias s · b + c. This does so
 * for every Conv (with a bias, weights and bias constants of its own) whose only reader is such a
 * Mul by a scalar constant, itself read only by an Add of a scalar constant. The outputs change
 * by float rounding only.
 */
export function foldConvAffine(model: Uint8Array): { bytes: Uint8Array; folded: number } {
  const top = readFields(model);
  const graphField = top.find((f) => f.no === MODEL_GRAPH);
  if (!graphField) return { bytes: model, folded: 0 };
  const graph = readFields(graphField.bytes!);
  const nodes = graph.filter((f) => f.no === GRAPH_NODE).map(parseNode);
  const { producer, consumers } = graphIndex(graph, nodes);
  const readers = new Map<string, Node[]>();
  for (const n of nodes) for (const i of n.inputs) readers.set(i, [...(readers.get(i) ?? []), n]);
  const only = (name: string) => (consumers.get(name) === 1 ? readers.get(name)?.[0] : undefined);
  /** The other input of a two-input node when it is a scalar constant. */
  const scalarBeside = (n: Node, value: string) => {
    if (n.inputs.length !== 2) return null;
    const other = n.inputs[0] === value ? n.inputs[1]! : n.inputs[0]!;
    const p = producer.get(other);
    return p && other !== value ? constantScalar(p) : null;
  };
  const replaced = new Map<Node, ProtoField>();
  const dropped = new Set<Node>();
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
    replaced.set(
      wNode,
      withConstantFloats(
        wNode,
        weights.map((v) => s * v),
      ),
    );
    replaced.set(
      bNode,
      withConstantFloats(
        bNode,
        bias.map((v) => s * v + c),
      ),
    );
    replaced.set(conv, withOutput(conv, add.outputs[0]!));
    dropped.add(mul).add(add);
    folded++;
  }
  if (folded === 0) return { bytes: model, folded: 0 };
  // The scalar constants only the dropped nodes read go too (onnxruntime warns about unused ones).
  const used = new Set<string>();
  for (const n of nodes) if (!dropped.has(n)) for (const i of n.inputs) used.add(i);
  for (const n of nodes) {
    if (n.op === 'Constant' && n.outputs.every((o) => !used.has(o) && consumers.has(o))) dropped.add(n);
  }
  const byField = new Map(nodes.map((n) => [n.field, n]));
  const newGraph: ProtoField[] = [];
  for (const f of graph) {
    const n = byField.get(f);
    if (!n) newGraph.push(f);
    else if (replaced.has(n)) newGraph.push(replaced.get(n)!);
    else if (!dropped.has(n)) newGraph.push(f);
  }
  const bytes = writeFields(top.map((f) => (f === graphField ? { ...f, bytes: writeFields(newGraph) } : f)));
  return { bytes, folded };
}
