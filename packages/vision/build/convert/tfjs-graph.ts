import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * Reads a TF.js *graph model* (model.json + binary weight shards) into plain data: the
 * TensorFlow GraphDef nodes and the constant tensors, dequantized to float32 / int32.
 */

export interface TfAttr {
  s?: string; // base64
  i?: string;
  f?: number;
  b?: boolean;
  type?: string;
  list?: { i?: string[]; s?: string[]; f?: number[] };
  shape?: { dim?: { size: string }[] };
}

export interface TfNode {
  name: string;
  op: string;
  input?: string[];
  attr?: Record<string, TfAttr>;
}

export interface TfConst {
  shape: number[];
  dtype: 'float32' | 'int32';
  data: Float32Array | Int32Array;
}

export interface TfGraph {
  nodes: TfNode[];
  consts: Map<string, TfConst>;
  /** Output names declared by the model's signature, when it has one. */
  signatureOutputs: string[];
}

interface WeightSpec {
  name: string;
  shape: number[];
  dtype: string;
  quantization?: {
    dtype: 'float16' | 'uint8' | 'uint16';
    scale?: number;
    min?: number;
    original_dtype?: string;
  };
}

interface ModelJson {
  modelTopology: { node: TfNode[] };
  weightsManifest: { paths: string[]; weights: WeightSpec[] }[];
  signature?: { outputs?: Record<string, { name: string }> };
}

/** IEEE 754 half precision → float32. */
export function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * 2 ** -14 * (frac / 1024);
  if (exp === 0x1f) return frac ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * 2 ** (exp - 15) * (1 + frac / 1024);
}

function decodeWeight(spec: WeightSpec, bytes: Uint8Array, offset: number): { value: TfConst; size: number } {
  const count = spec.shape.reduce((a, b) => a * b, 1);
  const view = new DataView(bytes.buffer, bytes.byteOffset + offset);
  const q = spec.quantization;
  const outDtype = (q?.original_dtype ?? spec.dtype) === 'int32' ? 'int32' : 'float32';
  if (outDtype === 'int32' && !q) {
    const data = new Int32Array(count);
    for (let i = 0; i < count; i++) data[i] = view.getInt32(i * 4, true);
    return { value: { shape: spec.shape, dtype: 'int32', data }, size: count * 4 };
  }
  if (spec.dtype !== 'float32' && !q) throw new Error(`weight ${spec.name}: unsupported dtype ${spec.dtype}`);
  const data = new Float32Array(count);
  if (!q) {
    for (let i = 0; i < count; i++) data[i] = view.getFloat32(i * 4, true);
    return { value: { shape: spec.shape, dtype: 'float32', data }, size: count * 4 };
  }
  if (q.dtype === 'float16') {
    for (let i = 0; i < count; i++) data[i] = halfToFloat(view.getUint16(i * 2, true));
    return { value: { shape: spec.shape, dtype: 'float32', data }, size: count * 2 };
  }
  // Affine quantization: value = q * scale + min.
  const scale = q.scale ?? 1;
  const min = q.min ?? 0;
  const width = q.dtype === 'uint8' ? 1 : 2;
  for (let i = 0; i < count; i++) {
    const raw = width === 1 ? view.getUint8(i) : view.getUint16(i * 2, true);
    data[i] = raw * scale + min;
  }
  const value: TfConst = {
    shape: spec.shape,
    dtype: outDtype,
    data: outDtype === 'int32' ? Int32Array.from(data) : data,
  };
  return { value, size: count * width };
}

/** Parses model.json text and its weight shards (in manifest order). */
export function parseTfjsGraph(json: ModelJson, shards: (path: string) => Uint8Array): TfGraph {
  const consts = new Map<string, TfConst>();
  for (const group of json.weightsManifest) {
    const parts = group.paths.map(shards);
    const total = parts.reduce((a, p) => a + p.length, 0);
    const bytes = new Uint8Array(total);
    let at = 0;
    for (const p of parts) {
      bytes.set(p, at);
      at += p.length;
    }
    let offset = 0;
    for (const spec of group.weights) {
      const { value, size } = decodeWeight(spec, bytes, offset);
      consts.set(spec.name, value);
      offset += size;
    }
  }
  const signatureOutputs = Object.values(json.signature?.outputs ?? {}).map((o) => o.name.replace(/:0$/, ''));
  return { nodes: json.modelTopology.node, consts, signatureOutputs };
}

/** Reads `model.json` and the shards next to it. */
export async function readTfjsGraph(modelJsonPath: string): Promise<TfGraph> {
  const json = JSON.parse(await readFile(modelJsonPath, 'utf8')) as ModelJson;
  const dir = dirname(modelJsonPath);
  const shards = new Map<string, Uint8Array>();
  for (const group of json.weightsManifest) {
    for (const p of group.paths) shards.set(p, new Uint8Array(await readFile(join(dir, p))));
  }
  return parseTfjsGraph(json, (p) => {
    const s = shards.get(p);
    if (!s) throw new Error(`missing weight shard ${p}`);
    return s;
  });
}

export function attrString(node: TfNode, key: string): string | undefined {
  const s = node.attr?.[key]?.s;
  return s === undefined ? undefined : Buffer.from(s, 'base64').toString('utf8');
}

export function attrInts(node: TfNode, key: string): number[] | undefined {
  return node.attr?.[key]?.list?.i?.map(Number);
}

export function attrStrings(node: TfNode, key: string): string[] {
  return (node.attr?.[key]?.list?.s ?? []).map((s) => Buffer.from(s, 'base64').toString('utf8'));
}

export function attrBool(node: TfNode, key: string): boolean {
  return node.attr?.[key]?.b ?? false;
}

export function attrFloat(node: TfNode, key: string): number | undefined {
  return node.attr?.[key]?.f;
}
