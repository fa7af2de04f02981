import { fieldText, type ProtoField, readFields, textField, writeFields } from './proto-fields.ts';

/**
 * PaddleOCR's PP-OCRv4 models (exported by paddle2onnx at opset 9, which has no HardSwish op)
 * spell each hard-swish as four passes over the feature map: a = x + 3, c = clip(a, 0, 6),
 * m = x · c, y = m / 6. onnxruntime runs them as four element-wise kernels, and element-wise
 * kernels took about half the recogniser's kernel time (onnxruntime's own profile,
 * scripts/bench/rec-ops.ts). This rewrites each to y = x · HardSigmoid(x; α = 1/6, β = 0.5)
 * (HardSigmoid exists since opset 6): the same function, max(0, min(1, x/6 + 1/2)) · x, in two
 * passes. Anything not exactly of that shape is left as it is.
 */

// ONNX field numbers (onnx.proto).
const MODEL_GRAPH = 7;
const GRAPH_NODE = 1;
const NODE_INPUT = 1;
const NODE_OUTPUT = 2;
const NODE_NAME = 3;
const NODE_OP = 4;
const NODE_ATTRIBUTE = 5;
const ATTR_NAME = 1;
const ATTR_F = 2;
const ATTR_T = 5;
const ATTR_TYPE = 20;
const ATTR_TYPE_FLOAT = 1n;
const TENSOR_DATA_TYPE = 2;
const TENSOR_FLOAT_DATA = 4;
const TENSOR_RAW_DATA = 9;
const FLOAT = 1n;

interface Node {
  field: ProtoField;
  op: string;
  inputs: string[];
  outputs: string[];
  fields: ProtoField[];
}

function parseNode(field: ProtoField): Node {
  const fields = readFields(field.bytes!);
  const op = fields.find((f) => f.no === NODE_OP);
  return {
    field,
    op: op ? fieldText(op) : '',
    inputs: fields.filter((f) => f.no === NODE_INPUT).map(fieldText),
    outputs: fields.filter((f) => f.no === NODE_OUTPUT).map(fieldText),
    fields,
  };
}

function f32(bytes: Uint8Array): number {
  return new DataView(bytes.buffer, bytes.byteOffset, 4).getFloat32(0, true);
}

/** The single float of a Constant node's tensor, or null. */
function constantScalar(node: Node): number | null {
  if (node.op !== 'Constant') return null;
  for (const a of node.fields.filter((f) => f.no === NODE_ATTRIBUTE)) {
    const attr = readFields(a.bytes!);
    const t = attr.find((f) => f.no === ATTR_T);
    if (!t) continue;
    const tensor = readFields(t.bytes!);
    if (tensor.find((f) => f.no === TENSOR_DATA_TYPE)?.int !== FLOAT) return null;
    const raw = tensor.find((f) => f.no === TENSOR_RAW_DATA)?.bytes;
    if (raw) return raw.length === 4 ? f32(raw) : null;
    const data = tensor.filter((f) => f.no === TENSOR_FLOAT_DATA);
    // float_data: packed (one length-delimited field) or one fixed32 field per value.
    if (data.length === 1 && data[0]!.bytes!.length === 4) return f32(data[0]!.bytes!);
    return null;
  }
  return null;
}

/** A float attribute of a node (Clip's min and max at opset 9), or null. */
function floatAttr(node: Node, name: string): number | null {
  for (const a of node.fields.filter((f) => f.no === NODE_ATTRIBUTE)) {
    const attr = readFields(a.bytes!);
    const n = attr.find((f) => f.no === ATTR_NAME);
    const v = attr.find((f) => f.no === ATTR_F);
    if (n && fieldText(n) === name && v) return f32(v.bytes!);
  }
  return null;
}

function floatAttrField(name: string, value: number): ProtoField {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setFloat32(0, value, true);
  return {
    no: NODE_ATTRIBUTE,
    wire: 2,
    bytes: writeFields([
      textField(ATTR_NAME, name),
      { no: ATTR_F, wire: 5, bytes: b },
      { no: ATTR_TYPE, wire: 0, int: ATTR_TYPE_FLOAT },
    ]),
  };
}

function nodeField(
  op: string,
  name: string,
  inputs: string[],
  outputs: string[],
  attrs: ProtoField[] = [],
): ProtoField {
  return {
    no: GRAPH_NODE,
    wire: 2,
    bytes: writeFields([
      ...inputs.map((i) => textField(NODE_INPUT, i)),
      ...outputs.map((o) => textField(NODE_OUTPUT, o)),
      textField(NODE_NAME, name),
      textField(NODE_OP, op),
      ...attrs,
    ]),
  };
}

/**
 * Rewrites every hard-swish of the model (bytes of an ONNX ModelProto) as HardSigmoid · x.
 * Returns the new model and how many were rewritten (0: the bytes unchanged).
 */
export function fuseHardSwish(model: Uint8Array): { bytes: Uint8Array; fused: number } {
  const top = readFields(model);
  const graphField = top.find((f) => f.no === MODEL_GRAPH);
  if (!graphField) return { bytes: model, fused: 0 };
  const graph = readFields(graphField.bytes!);
  const nodes = graph.filter((f) => f.no === GRAPH_NODE).map(parseNode);
  const producer = new Map<string, Node>();
  const consumers = new Map<string, number>();
  for (const n of nodes) {
    for (const o of n.outputs) producer.set(o, n);
    for (const i of n.inputs) consumers.set(i, (consumers.get(i) ?? 0) + 1);
  }
  for (const f of graph.filter((g) => g.no === 12)) {
    // Graph outputs count as consumers (ValueInfoProto name is field 1).
    const name = readFields(f.bytes!).find((x) => x.no === 1);
    if (name) consumers.set(fieldText(name), (consumers.get(fieldText(name)) ?? 0) + 1);
  }
  const scalar = (name: string) => {
    const p = producer.get(name);
    return p ? constantScalar(p) : null;
  };
  const only = (name: string) => consumers.get(name) === 1;
  const replaced = new Map<Node, ProtoField[]>();
  const dropped = new Set<Node>();
  let fused = 0;
  for (const div of nodes) {
    if (div.op !== 'Div' || div.inputs.length !== 2 || scalar(div.inputs[1]!) !== 6) continue;
    const mul = producer.get(div.inputs[0]!);
    if (mul?.op !== 'Mul' || mul.inputs.length !== 2 || !only(div.inputs[0]!)) continue;
    const [x, c] = mul.inputs as [string, string];
    const clip = producer.get(c);
    if (clip?.op !== 'Clip' || !only(c) || floatAttr(clip, 'min') !== 0 || floatAttr(clip, 'max') !== 6)
      continue;
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
  // The Constant nodes of 3 and 6 that only the rewritten hard-swishes used go too (onnxruntime
  // warns about every unused one when it loads the model).
  const used = new Set<string>();
  for (const n of nodes) if (!dropped.has(n) && !replaced.has(n)) for (const i of n.inputs) used.add(i);
  for (const n of replaced.keys()) used.add(n.inputs[0]!);
  for (const n of nodes) {
    if (n.op === 'Constant' && n.outputs.every((o) => !used.has(o) && consumers.has(o))) dropped.add(n);
  }
  const byField = new Map(nodes.map((n) => [n.field, n]));
  const newGraph: ProtoField[] = [];
  for (const f of graph) {
    const n = byField.get(f);
    if (!n) newGraph.push(f);
    else if (replaced.has(n)) newGraph.push(...replaced.get(n)!);
    else if (!dropped.has(n)) newGraph.push(f);
  }
  const bytes = writeFields(top.map((f) => (f === graphField ? { ...f, bytes: writeFields(newGraph) } : f)));
  return { bytes, fused };
}
