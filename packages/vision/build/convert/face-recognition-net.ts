import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type OnnxModel, type OnnxNode, type OnnxTensor, OnnxType } from './onnx-proto.ts';
import { parseTfjsGraph, type TfConst } from './tfjs-graph.ts';

/**
 * Builds the ONNX graph of face-api.js's `FaceRecognitionNet` (the port of dlib's
 * `dlib_face_recognition_resnet_model_v1`, a 29-layer ResNet giving a 128-d descriptor) from its
 * weights file. That model ships as *weights only* (a TF.js weights manifest, no graph): the
 * architecture lives in face-api.js's code, which this file reproduces layer by layer
 * (src/faceRecognitionNet/{FaceRecognitionNet,convLayer,residualLayer,scaleLayer}.ts):
 *
 *   x = (rgb − meanRgb) / 255                         input 150×150, NHWC, 0..255
 *   convDown 7×7/2 valid (32) → maxPool 3×3/2 valid
 *   residual ×3 (32) → residualDown (64) → residual ×3 → residualDown (128) → residual ×2
 *   → residualDown (256) → residual ×2 → residualDown (256) → mean over H, W → matMul fc (256×128)
 *
 *   convLayer  = conv + bias, then the "scale" layer (·weights + biases), ReLU unless noted
 *   residual   = relu(x + convNoRelu(conv(x)))                       3×3 'same' convs
 *   residualDown = relu(pool(x) ⊕ convNoRelu(convDown(x)))           convDown: 3×3/2 'valid'
 *       pool = avgPool 2×2/2 valid, zero-padded on channels when the block doubles them; when
 *       the conv branch comes out one pixel smaller (odd sizes: 8→3 vs 4), face-api appends one
 *       row and one column of zeros at the bottom/right before the addition. We do the same.
 *
 * The scale layer is folded into the convolution (w·s, b·s + β): one op fewer per layer, and
 * the result differs from face-api's only by float rounding (checked by the parity test).
 */

export const FACE_RECOGNITION_INPUT_SIZE = 150;
/** face-api's `meanRgb` for this net (dlib's training mean), subtracted before dividing by 255. */
export const FACE_RECOGNITION_MEAN_RGB = [122.782, 117.001, 104.298] as const;
export const FACE_RECOGNITION_INPUT = 'input';
export const FACE_RECOGNITION_OUTPUT = 'descriptor';

type Weights = Map<string, TfConst>;

class GraphBuilder {
  readonly nodes: OnnxNode[] = [];
  readonly initializers: OnnxTensor[] = [];
  private n = 0;

  constructor(private readonly weights: Weights) {}

  weight(name: string): TfConst {
    const w = this.weights.get(name);
    if (!w) throw new Error(`face recognition weights: missing ${name}`);
    return w;
  }

  constant(name: string, dims: number[], data: Float32Array | BigInt64Array): string {
    const type = data instanceof Float32Array ? OnnxType.FLOAT : OnnxType.INT64;
    this.initializers.push({ name, dims, type, data });
    return name;
  }

  emit(op: string, inputs: string[], attrs?: OnnxNode['attrs'], output?: string): string {
    const name = output ?? `${op.toLowerCase()}_${this.n++}`;
    this.nodes.push({ op, name, inputs, outputs: [name], attrs });
    return name;
  }

  /** conv + bias + scale layer (folded), optional ReLU. Filters are HWIO in the file, OIHW in ONNX. */
  convLayer(x: string, prefix: string, stride: 1 | 2, relu: boolean): { out: string; channels: number } {
    const filters = this.weight(`${prefix}/conv/filters`);
    const bias = this.weight(`${prefix}/conv/bias`).data;
    const scaleW = this.weight(`${prefix}/scale/weights`).data;
    const scaleB = this.weight(`${prefix}/scale/biases`).data;
    const [kh, kw, cin, cout] = filters.shape as [number, number, number, number];
    const w = new Float32Array(cout * cin * kh * kw);
    for (let y = 0; y < kh; y++)
      for (let x2 = 0; x2 < kw; x2++)
        for (let i = 0; i < cin; i++)
          for (let o = 0; o < cout; o++) {
            const src = ((y * kw + x2) * cin + i) * cout + o;
            w[((o * cin + i) * kh + y) * kw + x2] = filters.data[src]! * scaleW[o]!;
          }
    const b = new Float32Array(cout);
    for (let o = 0; o < cout; o++) b[o] = bias[o]! * scaleW[o]! + scaleB[o]!;
    const wName = this.constant(`${prefix}/W`, [cout, cin, kh, kw], w);
    const bName = this.constant(`${prefix}/B`, [cout], b);
    // TF 'same' with stride 1 and an odd kernel pads (k−1)/2 on every side; 'valid' pads nothing.
    const pad = stride === 1 ? (kh - 1) / 2 : 0;
    const conv = this.emit('Conv', [x, wName, bName], {
      kernel_shape: [kh, kw],
      strides: [stride, stride],
      pads: [pad, pad, pad, pad],
    });
    return { out: relu ? this.emit('Relu', [conv]) : conv, channels: cout };
  }

  residual(x: string, prefix: string): string {
    const a = this.convLayer(x, `${prefix}/conv1`, 1, true).out;
    const b = this.convLayer(a, `${prefix}/conv2`, 1, false).out;
    return this.emit('Relu', [this.emit('Add', [b, x])]);
  }

  residualDown(x: string, prefix: string, inChannels: number, inSize: number): { out: string; size: number } {
    const a = this.convLayer(x, `${prefix}/conv1`, 2, true).out;
    const { out: b, channels } = this.convLayer(a, `${prefix}/conv2`, 1, false);
    const convSize = Math.floor((inSize - 3) / 2) + 1;
    const poolSize = Math.floor((inSize - 2) / 2) + 1;
    let branch = b;
    if (convSize !== poolSize) {
      // face-api: concat one zero row, then one zero column, at the end (bottom/right).
      const pads = this.constant(
        `${prefix}/pad_hw`,
        [8],
        BigInt64Array.from([0n, 0n, 0n, 0n, 0n, 0n, 1n, 1n]),
      );
      branch = this.emit('Pad', [b, pads]);
    }
    let pooled = this.emit('AveragePool', [x], { kernel_shape: [2, 2], strides: [2, 2] });
    if (channels !== inChannels) {
      const extra = BigInt(channels - inChannels);
      const pads = this.constant(
        `${prefix}/pad_c`,
        [8],
        BigInt64Array.from([0n, 0n, 0n, 0n, 0n, extra, 0n, 0n]),
      );
      pooled = this.emit('Pad', [pooled, pads]);
    }
    return { out: this.emit('Relu', [this.emit('Add', [pooled, branch])]), size: poolSize };
  }
}

/** The ONNX model of FaceRecognitionNet from decoded weights (name → tensor). */
export function buildFaceRecognitionNet(weights: Weights): OnnxModel {
  const g = new GraphBuilder(weights);
  const size = FACE_RECOGNITION_INPUT_SIZE;
  // Pre-processing in the graph, in face-api's order: subtract the mean, then divide by 255.
  const mean = g.constant('mean_rgb', [1, 1, 1, 3], Float32Array.from(FACE_RECOGNITION_MEAN_RGB));
  const div = g.constant('div_255', [], Float32Array.of(255));
  const normalized = g.emit('Div', [g.emit('Sub', [FACE_RECOGNITION_INPUT, mean]), div]);
  let x = g.emit('Transpose', [normalized], { perm: [0, 3, 1, 2] }); // NHWC → NCHW

  x = g.convLayer(x, 'conv32_down', 2, true).out;
  x = g.emit('MaxPool', [x], { kernel_shape: [3, 3], strides: [2, 2] });
  let spatial = Math.floor((Math.floor((size - 7) / 2) + 1 - 3) / 2) + 1; // 150 → 72 → 35
  let channels = 32;
  const stages: [string, number][] = [
    ['conv32', 3],
    ['conv64', 3],
    ['conv128', 2],
    ['conv256', 2],
  ];
  for (const [stage, repeats] of stages) {
    if (stage !== 'conv32') {
      const down = g.residualDown(x, `${stage}_down`, channels, spatial);
      x = down.out;
      spatial = down.size;
      channels = g.weight(`${stage}_down/conv2/conv/filters`).shape[3]!;
    }
    for (let i = 1; i <= repeats; i++) x = g.residual(x, `${stage}_${i}`);
  }
  x = g.residualDown(x, 'conv256_down_out', channels, spatial).out;

  const pooled = g.emit('ReduceMean', [x], { axes: [2, 3], keepdims: 0 });
  const fc = g.weight('fc');
  const fcName = g.constant('fc', fc.shape, fc.data as Float32Array);
  g.emit('MatMul', [pooled, fcName], undefined, FACE_RECOGNITION_OUTPUT);

  return {
    graph: {
      name: 'face_recognition_net',
      nodes: g.nodes,
      initializers: g.initializers,
      inputs: [{ name: FACE_RECOGNITION_INPUT, type: OnnxType.FLOAT, shape: ['batch', size, size, 3] }],
      outputs: [{ name: FACE_RECOGNITION_OUTPUT, type: OnnxType.FLOAT, shape: ['batch', 128] }],
    },
    opset: 13,
    producer: 'idv-face-recognition-net',
    docString: "face-api.js FaceRecognitionNet (dlib ResNet face descriptor), built from face-api's weights",
  };
}

/** Reads face-api's weights manifest (+ .bin beside it) into name → dequantized float32 tensor. */
export async function readFaceApiWeights(manifestPath: string): Promise<Weights> {
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
  const dir = dirname(manifestPath);
  const shards = new Map<string, Uint8Array>();
  for (const group of manifest) {
    for (const p of group.paths) shards.set(p, new Uint8Array(await readFile(join(dir, p))));
  }
  // A weights manifest is the `weightsManifest` part of a graph model.json: reuse its decoder.
  const graph = parseTfjsGraph({ modelTopology: { node: [] }, weightsManifest: manifest }, (p) => {
    const s = shards.get(p);
    if (!s) throw new Error(`missing weight shard ${p}`);
    return s;
  });
  return graph.consts;
}
