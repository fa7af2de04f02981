import {
  asFloat,
  type OnnxAttrValue,
  type OnnxModel,
  type OnnxNode,
  type OnnxTensor,
  OnnxType,
  type OnnxValueInfo,
} from './onnx-proto.ts';
import {
  attrBool,
  attrFloat,
  attrInts,
  attrString,
  attrStrings,
  type TfConst,
  type TfGraph,
  type TfNode,
} from './tfjs-graph.ts';

/**
 * Translates a TensorFlow graph (as stored in a TF.js graph model) into an ONNX graph.
 *
 * Layout: TensorFlow works in NHWC, ONNX convolutions in NCHW. The model keeps an NHWC input
 * and NHWC outputs (so callers and the parity test see exactly the TF.js interface); inside,
 * the input is transposed once to NCHW and every 4-D activation stays NCHW. Each tensor
 * carries its layout; an op that depends on axis order (Reshape, MatMul, Softmax...) gets its
 * input transposed back to NHWC first, and constants that broadcast against an NCHW tensor are
 * re-laid out at conversion time (no runtime cost).
 *
 * Supported ops are those of the face models we ship (BlazeFace, MobileFace, FaceRes, FaceMesh)
 * and common relatives; anything else raises a clear error naming the op.
 */

type Layout = 'nchw' | 'plain';

interface Value {
  name: string;
  layout: Layout;
}

const NHWC_TO_NCHW = [0, 3, 1, 2];
const NCHW_TO_NHWC = [0, 2, 3, 1];
/** axis in NHWC → axis in NCHW */
const NHWC_AXIS_IN_NCHW = [0, 2, 3, 1];

function transposeData<T extends Float32Array | Int32Array>(data: T, shape: number[], perm: number[]): T {
  const rank = shape.length;
  const outShape = perm.map((p) => shape[p]!);
  const inStrides = new Array<number>(rank).fill(1);
  for (let i = rank - 2; i >= 0; i--) inStrides[i] = inStrides[i + 1]! * shape[i + 1]!;
  const out = new (data.constructor as new (n: number) => T)(data.length);
  const idx = new Array<number>(rank).fill(0);
  for (let o = 0; o < data.length; o++) {
    let src = 0;
    for (let d = 0; d < rank; d++) src += idx[d]! * inStrides[perm[d]!]!;
    out[o] = data[src]!;
    for (let d = rank - 1; d >= 0; d--) {
      idx[d]!++;
      if (idx[d]! < outShape[d]!) break;
      idx[d] = 0;
    }
  }
  return out;
}

export interface ConvertOptions {
  /** Graph outputs (TF node names). Defaults to the signature outputs, else the graph's sinks. */
  outputs?: string[];
  opset?: number;
  producer?: string;
}

class Converter {
  readonly nodes: OnnxNode[] = [];
  readonly initializers: OnnxTensor[] = [];
  readonly inputs: OnnxValueInfo[] = [];
  private values = new Map<string, Value>();
  private uid = 0;
  private transposedCache = new Map<string, string>();

  constructor(private graph: TfGraph) {}

  /** ONNX name of the tensor a TF node produces; the bare TF name is kept for graph outputs. */
  uniqueOut(name: string): string {
    return `${name}__out`;
  }

  private fresh(base: string): string {
    this.uid++;
    return `${base}__${this.uid}`;
  }

  private constOf(ref: string): TfConst | undefined {
    return this.graph.consts.get(ref);
  }

  emit(op: string, inputs: string[], attrs?: OnnxNode['attrs'], outName?: string): string {
    const out = outName ?? this.fresh(op);
    this.nodes.push({ op, name: out, inputs, outputs: [out], attrs });
    return out;
  }

  addInitializer(base: string, dims: number[], data: Float32Array | Int32Array | BigInt64Array): string {
    const name = this.fresh(base);
    const type =
      data instanceof Float32Array
        ? OnnxType.FLOAT
        : data instanceof BigInt64Array
          ? OnnxType.INT64
          : OnnxType.INT32;
    this.initializers.push({ name, dims, type, data });
    return name;
  }

  int64(base: string, values: number[]): string {
    return this.addInitializer(base, [values.length], BigInt64Array.from(values.map((v) => BigInt(v))));
  }

  /** A constant used as an ordinary (non-structural) operand, laid out to match `like`. */
  constOperand(ref: string, like: Layout): Value {
    const c = this.constOf(ref)!;
    const data = c.dtype === 'int32' ? Float32Array.from(c.data) : (c.data as Float32Array);
    if (like === 'nchw' && c.shape.length >= 1 && c.shape.length <= 4 && c.data.length > 1) {
      // NHWC broadcasting aligns trailing axes: pad to rank 4 with leading 1s, then move C forward.
      const padded = [...new Array(4 - c.shape.length).fill(1), ...c.shape];
      const moved = transposeData(data, padded, NHWC_TO_NCHW);
      const dims = NHWC_TO_NCHW.map((p) => padded[p]!);
      return { name: this.addInitializer(ref, dims, moved), layout: 'nchw' };
    }
    return { name: this.addInitializer(ref, c.shape, data), layout: 'plain' };
  }

  value(ref: string): Value {
    const clean = ref.replace(/:0$/, '');
    const v = this.values.get(clean);
    if (v) return v;
    if (this.constOf(clean)) return this.constOperand(clean, 'plain');
    throw new Error(`tensor ${ref} is not produced by any supported node`);
  }

  set(name: string, v: Value): void {
    this.values.set(name, v);
  }

  toNchw(v: Value): string {
    if (v.layout === 'nchw') return v.name;
    return this.cachedTranspose(v.name, NHWC_TO_NCHW);
  }

  toPlain(v: Value): string {
    if (v.layout === 'plain') return v.name;
    return this.cachedTranspose(v.name, NCHW_TO_NHWC);
  }

  private cachedTranspose(name: string, perm: number[]): string {
    const key = `${name}|${perm.join(',')}`;
    let out = this.transposedCache.get(key);
    if (!out) {
      out = this.emit('Transpose', [name], { perm });
      this.transposedCache.set(key, out);
    }
    return out;
  }

  isConst(ref: string): boolean {
    return this.constOf(ref.replace(/:0$/, '')) !== undefined && !this.values.has(ref);
  }

  constValues(ref: string): number[] {
    const c = this.constOf(ref.replace(/:0$/, ''));
    if (!c) throw new Error(`expected a constant for ${ref}`);
    return Array.from(c.data);
  }

  constTensor(ref: string): TfConst {
    const c = this.constOf(ref.replace(/:0$/, ''));
    if (!c) throw new Error(`expected a constant for ${ref}`);
    return c;
  }
}

function inputsOf(node: TfNode): string[] {
  return (node.input ?? []).filter((i) => !i.startsWith('^'));
}

/** TF padding attribute → ONNX conv/pool attributes. */
function paddingAttrs(node: TfNode): Record<string, OnnxAttrValue> {
  const padding = attrString(node, 'padding') ?? 'VALID';
  if (padding === 'SAME') return { auto_pad: 'SAME_UPPER' }; // TF puts the odd extra pixel at the end
  if (padding === 'VALID') return {};
  if (padding === 'EXPLICIT') {
    const p = attrInts(node, 'explicit_paddings') ?? [];
    // NHWC pairs: [n0,n1,h0,h1,w0,w1,c0,c1] → ONNX [h0,w0,h1,w1]
    return { pads: [p[2] ?? 0, p[4] ?? 0, p[3] ?? 0, p[5] ?? 0] };
  }
  throw new Error(`${node.name}: unsupported padding ${padding}`);
}

function checkNhwc(node: TfNode): void {
  const fmt = attrString(node, 'data_format');
  if (fmt && fmt !== 'NHWC') throw new Error(`${node.name}: data_format ${fmt} is not supported`);
}

/** Activation fused after a convolution or matmul (TF grappler fusions). */
function applyFused(
  c: Converter,
  node: TfNode,
  x: string,
  extra: string[],
  layout: Layout,
  outName: string,
): string {
  const ops = attrStrings(node, 'fused_ops').filter((o) => o !== 'BiasAdd');
  if (ops.length === 0) return c.emit('Identity', [x], undefined, outName);
  if (ops.length > 1) throw new Error(`${node.name}: fused ops ${ops.join('+')} not supported`);
  const op = ops[0]!;
  switch (op) {
    case 'Relu':
      return c.emit('Relu', [x], undefined, outName);
    case 'Relu6':
      return c.emit(
        'Clip',
        [
          x,
          c.addInitializer('zero', [], Float32Array.of(0)),
          c.addInitializer('six', [], Float32Array.of(6)),
        ],
        undefined,
        outName,
      );
    case 'Elu':
      return c.emit('Elu', [x], undefined, outName);
    case 'LeakyRelu':
      return c.emit('LeakyRelu', [x], { alpha: asFloat(attrFloat(node, 'leakyrelu_alpha') ?? 0.2) }, outName);
    case 'Prelu': {
      const alphaRef = extra[0];
      if (!alphaRef) throw new Error(`${node.name}: Prelu without alpha`);
      const alpha = c.constOperand(alphaRef.replace(/:0$/, ''), layout);
      return c.emit('PRelu', [x, alpha.name], undefined, outName);
    }
    case 'Sigmoid':
      return c.emit('Sigmoid', [x], undefined, outName);
    case 'Tanh':
      return c.emit('Tanh', [x], undefined, outName);
    default:
      throw new Error(`${node.name}: fused activation ${op} not supported`);
  }
}

function convertConv(c: Converter, node: TfNode, depthwise: boolean): void {
  checkNhwc(node);
  const [xRef, wRef, ...rest] = inputsOf(node);
  const x = c.toNchw(c.value(xRef!));
  const w = c.constTensor(wRef!);
  const [kh, kw, cin, m] = w.shape as [number, number, number, number];
  const strides = attrInts(node, 'strides') ?? [1, 1, 1, 1];
  const dilations = attrInts(node, 'dilations') ?? [1, 1, 1, 1];
  const wData = w.data as Float32Array;
  let weightName: string;
  const attrs: Record<string, OnnxAttrValue> = {
    kernel_shape: [kh, kw],
    strides: [strides[1]!, strides[2]!],
    dilations: [dilations[1]!, dilations[2]!],
    ...paddingAttrs(node),
  };
  if (depthwise) {
    // TF [kh, kw, cin, mult] → ONNX [cin*mult, 1, kh, kw], group = cin
    const t = transposeData(wData, [kh, kw, cin, m], [2, 3, 0, 1]);
    weightName = c.addInitializer(wRef!, [cin * m, 1, kh, kw], t);
    attrs.group = cin;
  } else {
    // TF [kh, kw, cin, cout] → ONNX [cout, cin, kh, kw]
    const t = transposeData(wData, [kh, kw, cin, m], [3, 2, 0, 1]);
    weightName = c.addInitializer(wRef!, [m, cin, kh, kw], t);
  }
  const fused = attrStrings(node, 'fused_ops');
  const convInputs = [x, weightName];
  let extra = rest;
  if (fused[0] === 'BiasAdd') {
    const b = c.constTensor(rest[0]!);
    convInputs.push(c.addInitializer(rest[0]!, [b.data.length], Float32Array.from(b.data)));
    extra = rest.slice(1);
  } else if (fused.length > 0) {
    throw new Error(`${node.name}: fused ops ${fused.join('+')} not supported`);
  }
  if (node.op.startsWith('_Fused') || node.op.startsWith('Fused')) {
    const conv = c.emit('Conv', convInputs, attrs);
    c.set(node.name, {
      name: applyFused(c, node, conv, extra, 'nchw', c.uniqueOut(node.name)),
      layout: 'nchw',
    });
  } else {
    c.set(node.name, { name: c.emit('Conv', convInputs, attrs, c.uniqueOut(node.name)), layout: 'nchw' });
  }
}

const BINARY: Record<string, string> = {
  Add: 'Add',
  AddV2: 'Add',
  BiasAdd: 'Add',
  Sub: 'Sub',
  Mul: 'Mul',
  RealDiv: 'Div',
  Div: 'Div',
  Maximum: 'Max',
  Minimum: 'Min',
  Pow: 'Pow',
  SquaredDifference: 'SquaredDifference',
};

const UNARY: Record<string, string> = {
  Relu: 'Relu',
  Sigmoid: 'Sigmoid',
  Tanh: 'Tanh',
  Abs: 'Abs',
  Neg: 'Neg',
  Exp: 'Exp',
  Log: 'Log',
  Sqrt: 'Sqrt',
  Elu: 'Elu',
  Identity: 'Identity',
};

function convertBinary(c: Converter, node: TfNode): void {
  const [aRef, bRef] = inputsOf(node) as [string, string];
  const aConst = c.isConst(aRef);
  const bConst = c.isConst(bRef);
  let a: Value;
  let b: Value;
  if (aConst && !bConst) {
    b = c.value(bRef);
    a = c.constOperand(aRef.replace(/:0$/, ''), b.layout);
  } else if (bConst && !aConst) {
    a = c.value(aRef);
    b = c.constOperand(bRef.replace(/:0$/, ''), a.layout);
  } else {
    a = c.value(aRef);
    b = c.value(bRef);
  }
  let layout: Layout = a.layout === 'nchw' || b.layout === 'nchw' ? 'nchw' : 'plain';
  let an = a.name;
  let bn = b.name;
  if (a.layout !== b.layout) {
    // A constant re-laid out is already 'nchw'; a plain scalar broadcasts either way.
    const aScalar = aConst && c.constTensor(aRef).data.length === 1;
    const bScalar = bConst && c.constTensor(bRef).data.length === 1;
    if (!aScalar && !bScalar) {
      an = c.toPlain(a);
      bn = c.toPlain(b);
      layout = 'plain';
    }
  }
  if (node.op === 'SquaredDifference') {
    const d = c.emit('Sub', [an, bn]);
    c.set(node.name, { name: c.emit('Mul', [d, d], undefined, c.uniqueOut(node.name)), layout });
    return;
  }
  c.set(node.name, { name: c.emit(BINARY[node.op]!, [an, bn], undefined, c.uniqueOut(node.name)), layout });
}

function reduce(c: Converter, node: TfNode, onnxOp: 'ReduceMean' | 'ReduceSum' | 'ReduceMax'): void {
  const [xRef, axesRef] = inputsOf(node) as [string, string];
  const x = c.value(xRef);
  const keep = attrBool(node, 'keep_dims');
  let axes = c.constValues(axesRef).map((a) => (a < 0 ? a + 4 : a));
  let input = x.name;
  let layout: Layout = x.layout;
  if (x.layout === 'nchw') {
    const mapped = axes.map((a) => NHWC_AXIS_IN_NCHW[a]!);
    const remainingNhwc = [0, 1, 2, 3].filter((a) => !axes.includes(a)).map((a) => NHWC_AXIS_IN_NCHW[a]!);
    const orderKept = remainingNhwc.every((v, i) => i === 0 || v > remainingNhwc[i - 1]!);
    if (keep) {
      axes = mapped;
    } else if (orderKept) {
      axes = mapped;
      layout = 'plain';
    } else {
      input = c.toPlain(x);
      layout = 'plain';
    }
  }
  const out = c.uniqueOut(node.name);
  if (onnxOp === 'ReduceSum') {
    c.emit(onnxOp, [input, c.int64('axes', axes)], { keepdims: keep ? 1 : 0 }, out);
  } else {
    c.emit(onnxOp, [input], { axes, keepdims: keep ? 1 : 0 }, out);
  }
  c.set(node.name, { name: out, layout });
}

function convertNode(c: Converter, node: TfNode): void {
  const ins = inputsOf(node);
  const op = node.op;
  if (op === 'Const' || op === 'NoOp') return;
  if (op === 'Conv2D' || op === '_FusedConv2D') {
    convertConv(c, node, false);
    return;
  }
  if (op === 'DepthwiseConv2dNative' || op === 'FusedDepthwiseConv2dNative') {
    convertConv(c, node, true);
    return;
  }
  if (op in BINARY) {
    convertBinary(c, node);
    return;
  }
  if (op in UNARY) {
    const x = c.value(ins[0]!);
    c.set(node.name, {
      name: c.emit(UNARY[op]!, [x.name], undefined, c.uniqueOut(node.name)),
      layout: x.layout,
    });
    return;
  }
  const out = c.uniqueOut(node.name);
  switch (op) {
    case 'Relu6': {
      const x = c.value(ins[0]!);
      const lo = c.addInitializer('zero', [], Float32Array.of(0));
      const hi = c.addInitializer('six', [], Float32Array.of(6));
      c.set(node.name, { name: c.emit('Clip', [x.name, lo, hi], undefined, out), layout: x.layout });
      return;
    }
    case 'Rsqrt': {
      const x = c.value(ins[0]!);
      const s = c.emit('Sqrt', [x.name]);
      c.set(node.name, { name: c.emit('Reciprocal', [s], undefined, out), layout: x.layout });
      return;
    }
    case 'Square': {
      const x = c.value(ins[0]!);
      c.set(node.name, { name: c.emit('Mul', [x.name, x.name], undefined, out), layout: x.layout });
      return;
    }
    case 'Prelu': {
      const x = c.value(ins[0]!);
      const alpha = c.constOperand(ins[1]!.replace(/:0$/, ''), x.layout);
      c.set(node.name, { name: c.emit('PRelu', [x.name, alpha.name], undefined, out), layout: x.layout });
      return;
    }
    case 'LeakyRelu': {
      const x = c.value(ins[0]!);
      const alpha = attrFloat(node, 'alpha') ?? 0.2;
      c.set(node.name, {
        name: c.emit('LeakyRelu', [x.name], { alpha: asFloat(alpha) }, out),
        layout: x.layout,
      });
      return;
    }
    case 'MaxPool':
    case 'AvgPool': {
      checkNhwc(node);
      const x = c.toNchw(c.value(ins[0]!));
      const k = attrInts(node, 'ksize') ?? [1, 1, 1, 1];
      const s = attrInts(node, 'strides') ?? [1, 1, 1, 1];
      const attrs: Record<string, OnnxAttrValue> = {
        kernel_shape: [k[1]!, k[2]!],
        strides: [s[1]!, s[2]!],
        ...paddingAttrs(node),
      };
      // TF's SAME average pooling divides by the number of real (unpadded) pixels.
      if (op === 'AvgPool') attrs.count_include_pad = 0;
      c.set(node.name, {
        name: c.emit(op === 'MaxPool' ? 'MaxPool' : 'AveragePool', [x], attrs, out),
        layout: 'nchw',
      });
      return;
    }
    case 'Pad':
    case 'PadV2':
    case 'MirrorPad': {
      const x = c.value(ins[0]!);
      const p = c.constValues(ins[1]!);
      const rank = p.length / 2;
      let rows = Array.from({ length: rank }, (_, i) => [p[2 * i]!, p[2 * i + 1]!] as [number, number]);
      if (x.layout === 'nchw') rows = NHWC_TO_NCHW.map((i) => rows[i]!);
      const pads = c.int64('pads', [...rows.map((r) => r[0]), ...rows.map((r) => r[1])]);
      const inputs = [x.name, pads];
      const attrs: Record<string, OnnxAttrValue> = {};
      if (op === 'PadV2')
        inputs.push(c.addInitializer('pad_value', [], Float32Array.of(c.constValues(ins[2]!)[0] ?? 0)));
      if (op === 'MirrorPad') attrs.mode = attrString(node, 'mode') === 'SYMMETRIC' ? 'edge' : 'reflect';
      if (op === 'MirrorPad' && attrString(node, 'mode') === 'SYMMETRIC') {
        throw new Error(`${node.name}: MirrorPad SYMMETRIC not supported`);
      }
      c.set(node.name, { name: c.emit('Pad', inputs, attrs, out), layout: x.layout });
      return;
    }
    case 'Reshape': {
      const x = c.toPlain(c.value(ins[0]!));
      const shape = c.int64('shape', c.constValues(ins[1]!));
      c.set(node.name, { name: c.emit('Reshape', [x, shape], undefined, out), layout: 'plain' });
      return;
    }
    case 'Squeeze': {
      const x = c.toPlain(c.value(ins[0]!));
      const dims = attrInts(node, 'squeeze_dims') ?? [];
      const inputs = dims.length ? [x, c.int64('axes', dims)] : [x];
      c.set(node.name, { name: c.emit('Squeeze', inputs, undefined, out), layout: 'plain' });
      return;
    }
    case 'Mean':
      reduce(c, node, 'ReduceMean');
      return;
    case 'Sum':
      reduce(c, node, 'ReduceSum');
      return;
    case 'Max':
      reduce(c, node, 'ReduceMax');
      return;
    case 'MatMul':
    case '_FusedMatMul': {
      const a = c.toPlain(c.value(ins[0]!));
      const wRef = ins[1]!;
      const b = c.isConst(wRef)
        ? c.constOperand(wRef.replace(/:0$/, ''), 'plain').name
        : c.toPlain(c.value(wRef));
      const attrs: Record<string, OnnxAttrValue> = {
        transA: attrBool(node, 'transpose_a') ? 1 : 0,
        transB: attrBool(node, 'transpose_b') ? 1 : 0,
      };
      const fused = attrStrings(node, 'fused_ops');
      const inputs = [a, b];
      let extra = ins.slice(2);
      if (fused[0] === 'BiasAdd') {
        inputs.push(c.constOperand(ins[2]!.replace(/:0$/, ''), 'plain').name);
        extra = ins.slice(3);
      }
      const gemm = c.emit('Gemm', inputs, attrs, op === 'MatMul' ? out : undefined);
      const result = op === 'MatMul' ? gemm : applyFused(c, node, gemm, extra, 'plain', out);
      c.set(node.name, { name: result, layout: 'plain' });
      return;
    }
    case 'Softmax': {
      const x = c.toPlain(c.value(ins[0]!));
      c.set(node.name, { name: c.emit('Softmax', [x], { axis: -1 }, out), layout: 'plain' });
      return;
    }
    case 'ConcatV2': {
      const axisRef = ins[ins.length - 1]!;
      const parts = ins.slice(0, -1).map((r) => c.value(r));
      let axis = c.constValues(axisRef)[0]!;
      const allNchw = parts.every((p) => p.layout === 'nchw');
      if (allNchw) {
        axis = NHWC_AXIS_IN_NCHW[axis < 0 ? axis + 4 : axis]!;
        c.set(node.name, {
          name: c.emit(
            'Concat',
            parts.map((p) => p.name),
            { axis },
            out,
          ),
          layout: 'nchw',
        });
      } else {
        c.set(node.name, {
          name: c.emit(
            'Concat',
            parts.map((p) => c.toPlain(p)),
            { axis },
            out,
          ),
          layout: 'plain',
        });
      }
      return;
    }
    default:
      throw new Error(`TF op ${op} (node ${node.name}) is not supported by the converter`);
  }
}

/** Graph outputs: signature outputs when declared, else nodes nobody consumes (sinks). */
export function graphOutputs(graph: TfGraph): string[] {
  if (graph.signatureOutputs.length) return graph.signatureOutputs;
  const consumed = new Set<string>();
  for (const n of graph.nodes) for (const i of inputsOf(n)) consumed.add(i.replace(/:\d+$/, ''));
  return graph.nodes
    .filter((n) => n.op !== 'Const' && n.op !== 'Placeholder' && !consumed.has(n.name))
    .map((n) => n.name)
    .sort();
}

export function convertGraph(graph: TfGraph, options: ConvertOptions = {}): OnnxModel {
  const c = new Converter(graph);
  for (const node of graph.nodes) {
    if (node.op !== 'Placeholder') continue;
    const dims = node.attr?.shape?.shape?.dim?.map((d) => Number(d.size)) ?? [];
    c.inputs.push({
      name: node.name,
      type: OnnxType.FLOAT,
      shape: dims.map((d, i) => (d < 0 ? (i === 0 ? 'batch' : null) : d)),
    });
    c.set(node.name, { name: node.name, layout: 'plain' });
  }
  // GraphDef order is not guaranteed topological: visit producers first.
  const byName = new Map(graph.nodes.map((n) => [n.name, n]));
  const done = new Set<string>();
  const visit = (n: TfNode): void => {
    if (done.has(n.name)) return;
    done.add(n.name);
    for (const i of inputsOf(n)) {
      const dep = byName.get(i.replace(/:\d+$/, ''));
      if (dep) visit(dep);
    }
    if (n.op !== 'Placeholder') convertNode(c, n);
  };
  const outputs = options.outputs ?? graphOutputs(graph);
  for (const o of outputs) {
    const n = byName.get(o);
    if (!n) throw new Error(`output ${o} not in graph`);
    visit(n);
  }
  const graphOutputsInfo: OnnxValueInfo[] = outputs.map((o) => {
    const v = c.value(o);
    c.emit('Identity', [c.toPlain(v)], undefined, o);
    return { name: o, type: OnnxType.FLOAT };
  });
  return {
    graph: {
      name: 'converted',
      nodes: c.nodes,
      initializers: c.initializers,
      inputs: c.inputs,
      outputs: graphOutputsInfo,
    },
    opset: options.opset ?? 13,
    producer: options.producer ?? 'idv-tfjs-to-onnx',
  };
}
