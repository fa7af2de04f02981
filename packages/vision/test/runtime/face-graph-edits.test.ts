import { readFileSync } from 'node:fs';
import ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { FACE_MODELS, type FaceModelName, faceGraphEdits, faceModelPath } from '../../src/faces/models.ts';
import { fuseRelu6 } from '../../src/runtime/relu6-clip-fusion.ts';

/**
 * The ReLU6 rewrite on the real converted face models (no mock): FaceRes's 27 Relu → Min → Max
 * become Clips with the same outputs; the other face models hold none and load byte for byte.
 */

const options = { executionProviders: ['cpu'], graphOptimizationLevel: 'all', intraOpNumThreads: 1 } as const;

async function modelBytes(name: FaceModelName): Promise<Uint8Array> {
  return new Uint8Array(readFileSync(await faceModelPath(name)));
}

/** Deterministic face-sized inputs in [0, 1): a gradient plus noise. */
function input(n: number): Float32Array {
  let seed = 777;
  return Float32Array.from({ length: n }, (_, i) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return 0.6 * ((i % 224) / 224) + 0.4 * (seed / 2147483648);
  });
}

async function outputs(bytes: Uint8Array): Promise<Float32Array> {
  const s = await ort.InferenceSession.create(bytes, options);
  const dims = [2, 224, 224, 3];
  const out = await s.run({ [s.inputNames[0]!]: new ort.Tensor('float32', input(2 * 224 * 224 * 3), dims) });
  return out[s.outputNames[0]!]!.data as Float32Array;
}

describe('face graph edits', () => {
  it('FaceRes: 27 ReLU6s become Clips, the same embedding', async () => {
    const original = await modelBytes(FACE_MODELS.faceres);
    const edited = fuseRelu6(original);
    expect(edited.fused).toBe(27);
    expect(edited.bytes.length).toBeLessThan(original.length);
    // Nothing left to rewrite: the same bytes come back.
    expect(fuseRelu6(edited.bytes).bytes).toBe(edited.bytes);
    const a = await outputs(original);
    const b = await outputs(edited.bytes);
    expect(b.length).toBe(a.length);
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
    // Clip computes the same function; only the fused convolution's summation order may differ.
    expect(worst).toBeLessThan(1e-4);
  });

  it.each([FACE_MODELS.detector, FACE_MODELS.resnet])(
    '%s holds no ReLU6 and loads as converted',
    async (name) => {
      const original = await modelBytes(name);
      expect(fuseRelu6(original).fused).toBe(0);
      expect(fuseRelu6(original).bytes).toBe(original);
      expect(faceGraphEdits(name)(original)).toBe(original);
    },
  );

  it('IDV_ONNX_FUSE=0 loads FaceRes as converted', async () => {
    const original = await modelBytes(FACE_MODELS.faceres);
    expect(faceGraphEdits(FACE_MODELS.faceres, { IDV_ONNX_FUSE: '0' })(original)).toBe(original);
    expect(faceGraphEdits(FACE_MODELS.faceres, {})(original)).not.toBe(original);
  });
});
