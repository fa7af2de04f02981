import { ProtoWriter } from './protobuf.ts';

/**
 * Plain objects describing an ONNX model, and their encoding to the ONNX protobuf format.
 * Field numbers are those of onnx.proto (ModelProto, GraphProto, NodeProto, TensorProto,
 * AttributeProto, ValueInfoProto).
 */

/** ONNX TensorProto.DataType values used here. */
export const OnnxType = { FLOAT: 1, INT32: 6, INT64: 7 } as const;
export type OnnxElemType = (typeof OnnxType)[keyof typeof OnnxType];

export interface OnnxTensor {
  name: string;
  dims: number[];
  type: OnnxElemType;
  data: Float32Array | Int32Array | BigInt64Array;
}

export type OnnxAttrValue = number | string | number[] | { floats: number[] } | { int: number };

export interface OnnxNode {
  op: string;
  name: string;
  inputs: string[];
  outputs: string[];
  /** Numbers are written as INT unless wrapped with `asFloat`; arrays as INTS. */
  attrs?: Record<string, OnnxAttrValue | { float: number }>;
}

export interface OnnxValueInfo {
  name: string;
  type: OnnxElemType;
  /** `null` for an unknown dimension, a string for a named symbolic one; omit for unknown shape. */
  shape?: (number | string | null)[];
}

export interface OnnxGraph {
  name: string;
  nodes: OnnxNode[];
  initializers: OnnxTensor[];
  inputs: OnnxValueInfo[];
  outputs: OnnxValueInfo[];
}

export interface OnnxModel {
  graph: OnnxGraph;
  opset: number;
  producer: string;
  docString?: string;
  metadata?: Record<string, string>;
}

/** Marks a number attribute as a FLOAT (plain numbers are INT). */
export function asFloat(value: number): { float: number } {
  return { float: value };
}

function encodeTensor(t: OnnxTensor): ProtoWriter {
  const w = new ProtoWriter();
  w.packedInts(1, t.dims);
  w.int(2, t.type);
  w.string(8, t.name);
  // raw_data is little-endian, which is the byte order of typed arrays on every platform we run on.
  w.bytes(9, new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength));
  return w;
}

function encodeAttribute(name: string, value: OnnxAttrValue | { float: number }): ProtoWriter {
  const w = new ProtoWriter();
  w.string(1, name);
  if (typeof value === 'number') {
    w.int(3, value).int(20, 2); // INT
  } else if (typeof value === 'string') {
    w.bytes(4, new TextEncoder().encode(value)).int(20, 3); // STRING
  } else if (Array.isArray(value)) {
    w.packedInts(8, value).int(20, 7); // INTS
  } else if ('float' in value) {
    w.float(2, value.float).int(20, 1); // FLOAT
  } else if ('floats' in value) {
    w.packedFloats(7, value.floats).int(20, 6); // FLOATS
  } else {
    w.int(3, value.int).int(20, 2);
  }
  return w;
}

function encodeNode(n: OnnxNode): ProtoWriter {
  const w = new ProtoWriter();
  for (const i of n.inputs) w.string(1, i);
  for (const o of n.outputs) w.string(2, o);
  w.string(3, n.name);
  w.string(4, n.op);
  for (const [k, v] of Object.entries(n.attrs ?? {})) w.message(5, encodeAttribute(k, v));
  return w;
}

function encodeValueInfo(v: OnnxValueInfo): ProtoWriter {
  const tensorType = new ProtoWriter().int(1, v.type);
  if (v.shape) {
    const shape = new ProtoWriter();
    for (const d of v.shape) {
      const dim = new ProtoWriter();
      if (typeof d === 'number') dim.int(1, d);
      else if (typeof d === 'string') dim.string(2, d);
      shape.message(1, dim);
    }
    tensorType.message(2, shape);
  }
  const type = new ProtoWriter().message(1, tensorType);
  return new ProtoWriter().string(1, v.name).message(2, type);
}

export function encodeModel(model: OnnxModel): Uint8Array {
  const g = new ProtoWriter();
  for (const n of model.graph.nodes) g.message(1, encodeNode(n));
  g.string(2, model.graph.name);
  for (const t of model.graph.initializers) g.message(5, encodeTensor(t));
  for (const i of model.graph.inputs) g.message(11, encodeValueInfo(i));
  for (const o of model.graph.outputs) g.message(12, encodeValueInfo(o));

  const m = new ProtoWriter();
  m.int(1, 8); // ir_version 8 (ONNX 1.10+), understood by every current runtime
  m.string(2, model.producer);
  if (model.docString) m.string(6, model.docString);
  m.message(7, g);
  m.message(8, new ProtoWriter().string(1, '').int(2, model.opset));
  for (const [k, v] of Object.entries(model.metadata ?? {})) {
    m.message(14, new ProtoWriter().string(1, k).string(2, v));
  }
  return m.finish();
}
