import { describe, expect, it } from 'vitest';
import { encodeModel } from '../../build/convert/onnx-proto.ts';
import { convertGraph } from '../../build/convert/tf-to-onnx.ts';
import { halfToFloat, type TfConst, type TfGraph, type TfNode } from '../../build/convert/tfjs-graph.ts';
import { loadModel, ort } from '../../src/runtime/onnx.ts';
import { rng } from '../tamper/synthetic.ts';
import { tf } from './tfjs-loader.ts';

/**
 * The converter's layout handling on a small hand-built graph whose ops depend on axis order
 * (NHWC in TF, NCHW inside the ONNX graph): a strided SAME convolution, a channel pad, a
 * per-channel constant, a mean over the height axis only, a reshape and a matmul. The
 * reference is TF.js computing the same ops.
 */

const b64 = (s: string) => Buffer.from(s).toString('base64');
const ints = (v: number[]) => ({ list: { i: v.map(String) } });

function randomConst(shape: number[], seed: number): TfConst {
  const r = rng(seed);
  const n = shape.reduce((a, b) => a * b, 1);
  return { shape, dtype: 'float32', data: Float32Array.from({ length: n }, () => r() - 0.5) };
}

describe('TF → ONNX op lowering', () => {
  it('decodes float16 weights', () => {
    expect(halfToFloat(0x3c00)).toBe(1);
    expect(halfToFloat(0xc000)).toBe(-2);
    expect(halfToFloat(0x3555)).toBeCloseTo(0.33325, 4);
    expect(halfToFloat(0)).toBe(0);
  });

  it('keeps axis-dependent ops equal to TF.js', async () => {
    const consts = new Map<string, TfConst>([
      ['w', randomConst([3, 3, 3, 4], 1)],
      ['scale', randomConst([6], 2)],
      ['pads', { shape: [4, 2], dtype: 'int32', data: Int32Array.from([0, 0, 0, 0, 0, 0, 1, 1]) }],
      ['axis', { shape: [1], dtype: 'int32', data: Int32Array.from([1]) }],
      ['shape', { shape: [2], dtype: 'int32', data: Int32Array.from([1, -1]) }],
      ['dense', randomConst([18, 5], 3)],
    ]);
    const nodes: TfNode[] = [
      {
        name: 'x',
        op: 'Placeholder',
        attr: { shape: { shape: { dim: [1, 6, 5, 3].map((d) => ({ size: String(d) })) } } },
      },
      {
        name: 'conv',
        op: 'Conv2D',
        input: ['x', 'w'],
        attr: { strides: ints([1, 2, 2, 1]), padding: { s: b64('SAME') }, dilations: ints([1, 1, 1, 1]) },
      },
      { name: 'pad', op: 'Pad', input: ['conv', 'pads'] },
      { name: 'mul', op: 'Mul', input: ['pad', 'scale'] },
      { name: 'mean', op: 'Mean', input: ['mul', 'axis'], attr: { keep_dims: { b: false } } },
      { name: 'flat', op: 'Reshape', input: ['mean', 'shape'] },
      { name: 'out', op: 'MatMul', input: ['flat', 'dense'] },
    ];
    for (const [name] of consts) nodes.push({ name, op: 'Const' });
    const graph: TfGraph = { nodes, consts, signatureOutputs: [] };
    const bytes = encodeModel(convertGraph(graph));
    const session = await loadModel('ops-test', async () => bytes);
    const input = randomConst([1, 6, 5, 3], 4).data as Float32Array;
    const got = (await session.run({ x: new ort.Tensor('float32', input, [1, 6, 5, 3]) })).out!
      .data as Float32Array;

    const c = (k: string) => consts.get(k)!;
    const conv = tf.conv2d(
      tf.tensor4d(input, [1, 6, 5, 3]),
      tf.tensor4d(c('w').data as Float32Array, [3, 3, 3, 4]),
      2,
      'same',
    );
    const padded = tf.pad(conv, [
      [0, 0],
      [0, 0],
      [0, 0],
      [1, 1],
    ]);
    const scaled = tf.mul(padded, tf.tensor1d(c('scale').data as Float32Array));
    const mean = tf.mean(scaled, 1); // over H: [1, 3, 6] — W and C order must survive
    const want = tf
      .matMul(tf.reshape(mean, [1, -1]), tf.tensor2d(c('dense').data as Float32Array, [18, 5]))
      .dataSync();
    expect(got.length).toBe(5);
    for (let i = 0; i < 5; i++) expect(Math.abs(got[i]! - want[i]!)).toBeLessThan(1e-5);
  });
});
