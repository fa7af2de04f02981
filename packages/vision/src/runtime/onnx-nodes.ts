import { fieldText, type ProtoField, readFields, textField, varints, writeFields } from './proto-fields.ts';

/**
 * The nodes of an ONNX graph as protobuf fields (proto-fields.ts), for edits that rewrite a few
 * nodes and keep every other byte: hardswish-fusion.ts, conv-affine-fold.ts.
 */

// ONNX field numbers (onnx.proto).
export const MODEL_GRAPH = 7;
export const GRAPH_NODE = 1;
/** GraphProto.output (ValueInfoProto, its name is field 1). */
export const GRAPH_OUTPUT = 12;
const NODE_INPUT = 1;
const NODE_OUTPUT = 2;
const NODE_NAME = 3;
const NODE_OP = 4;
const NODE_ATTRIBUTE = 5;
const ATTR_NAME = 1;
const ATTR_F = 2;
const ATTR_S = 4;
const ATTR_INTS = 8;
const ATTR_T = 5;
const ATTR_TYPE = 20;
const ATTR_TYPE_FLOAT = 1n;
const TENSOR_DIMS = 1;
const TENSOR_DATA_TYPE = 2;
const TENSOR_FLOAT_DATA = 4;
const TENSOR_RAW_DATA = 9;
const FLOAT = 1n;

export interface Node {
  field: ProtoField;
  op: string;
  inputs: string[];
  outputs: string[];
  fields: ProtoField[];
}

export function parseNode(field: ProtoField): Node {
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

/** The attribute field of a Constant node that holds its tensor, and the tensor's fields. */
function constantTensor(node: Node): { attr: ProtoField; tensor: ProtoField[] } | null {
  if (node.op !== 'Constant') return null;
  for (const a of node.fields.filter((f) => f.no === NODE_ATTRIBUTE)) {
    const t = readFields(a.bytes!).find((f) => f.no === ATTR_T);
    if (t) return { attr: a, tensor: readFields(t.bytes!) };
  }
  return null;
}

/** The values of a Constant node's float tensor (raw_data or float_data), or null. */
export function constantFloats(node: Node): Float32Array | null {
  const c = constantTensor(node);
  if (!c || c.tensor.find((f) => f.no === TENSOR_DATA_TYPE)?.int !== FLOAT) return null;
  const raw = c.tensor.find((f) => f.no === TENSOR_RAW_DATA)?.bytes;
  if (raw) {
    if (raw.length % 4 !== 0) return null;
    const view = new DataView(raw.buffer, raw.byteOffset, raw.length);
    return Float32Array.from({ length: raw.length / 4 }, (_, i) => view.getFloat32(4 * i, true));
  }
  // float_data: packed (length-delimited) fields or one fixed32 field per value.
  const values: number[] = [];
  for (const f of c.tensor.filter((x) => x.no === TENSOR_FLOAT_DATA)) {
    const view = new DataView(f.bytes!.buffer, f.bytes!.byteOffset, f.bytes!.length);
    for (let i = 0; i + 4 <= f.bytes!.length; i += 4) values.push(view.getFloat32(i, true));
  }
  return Float32Array.from(values);
}

/** The shape of a Constant node's tensor, or null. */
export function constantDims(node: Node): number[] | null {
  const c = constantTensor(node);
  return c ? c.tensor.filter((f) => f.no === TENSOR_DIMS).flatMap((f) => varints(f).map(Number)) : null;
}

/** The single float of a Constant node's tensor, or null. */
export function constantScalar(node: Node): number | null {
  const v = constantFloats(node);
  return v?.length === 1 ? v[0]! : null;
}

/** The Constant node with its tensor's values replaced by `values` (same count, as raw_data). */
export function withConstantFloats(node: Node, values: Float32Array): ProtoField {
  const c = constantTensor(node)!;
  const raw = new Uint8Array(values.length * 4);
  const view = new DataView(raw.buffer);
  for (let i = 0; i < values.length; i++) view.setFloat32(4 * i, values[i]!, true);
  const tensor = [
    ...c.tensor.filter((f) => f.no !== TENSOR_RAW_DATA && f.no !== TENSOR_FLOAT_DATA),
    { no: TENSOR_RAW_DATA, wire: 2, bytes: raw },
  ];
  const attr = readFields(c.attr.bytes!).map((f) =>
    f.no === ATTR_T ? { ...f, bytes: writeFields(tensor) } : f,
  );
  const fields = node.fields.map((f) => (f === c.attr ? { ...f, bytes: writeFields(attr) } : f));
  return { ...node.field, bytes: writeFields(fields) };
}

/** Where each value comes from and how many nodes (or graph outputs) read it. */
export function graphIndex(graph: readonly ProtoField[], nodes: readonly Node[]) {
  const producer = new Map<string, Node>();
  const consumers = new Map<string, number>();
  for (const n of nodes) {
    for (const o of n.outputs) producer.set(o, n);
    for (const i of n.inputs) consumers.set(i, (consumers.get(i) ?? 0) + 1);
  }
  for (const f of graph.filter((g) => g.no === GRAPH_OUTPUT)) {
    const name = readFields(f.bytes!).find((x) => x.no === 1);
    if (name) consumers.set(fieldText(name), (consumers.get(fieldText(name)) ?? 0) + 1);
  }
  return { producer, consumers };
}

/** The node with its output renamed. */
export function withOutput(node: Node, output: string): ProtoField {
  const fields = node.fields.map((f) => (f.no === NODE_OUTPUT ? textField(NODE_OUTPUT, output) : f));
  return { ...node.field, bytes: writeFields(fields) };
}

/** The node with its first input (a Conv's data input) renamed. */
export function withFirstInput(node: Node, input: string): ProtoField {
  const first = node.fields.find((f) => f.no === NODE_INPUT);
  const fields = node.fields.map((f) => (f === first ? textField(NODE_INPUT, input) : f));
  return { ...node.field, bytes: writeFields(fields) };
}

/** A float attribute of a node (Clip's min and max at opset 9), or null. */
export function floatAttr(node: Node, name: string): number | null {
  for (const a of node.fields.filter((f) => f.no === NODE_ATTRIBUTE)) {
    const attr = readFields(a.bytes!);
    const n = attr.find((f) => f.no === ATTR_NAME);
    const v = attr.find((f) => f.no === ATTR_F);
    if (n && fieldText(n) === name && v) return f32(v.bytes!);
  }
  return null;
}

/** An attribute of a node by name (its fields), or null. */
function attr(node: Node, name: string): ProtoField[] | null {
  for (const a of node.fields.filter((f) => f.no === NODE_ATTRIBUTE)) {
    const fields = readFields(a.bytes!);
    const n = fields.find((f) => f.no === ATTR_NAME);
    if (n && fieldText(n) === name) return fields;
  }
  return null;
}

/** An ints attribute of a node (a Conv's pads), or null when absent. */
export function intsAttr(node: Node, name: string): number[] | null {
  const a = attr(node, name);
  return a ? a.filter((f) => f.no === ATTR_INTS).flatMap((f) => varints(f).map(Number)) : null;
}

/** A string attribute of a node (a Conv's auto_pad), or null when absent. */
export function stringAttr(node: Node, name: string): string | null {
  const s = attr(node, name)?.find((f) => f.no === ATTR_S);
  return s ? fieldText(s) : null;
}

export function floatAttrField(name: string, value: number): ProtoField {
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

export function nodeField(
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
