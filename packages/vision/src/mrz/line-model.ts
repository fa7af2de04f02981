import { fileURLToPath } from 'node:url';
import { type Quad, quadHeight, quadWidth, type RgbImage, warpQuad } from '../image/raster.ts';
import { modelRunner } from '../runtime/backend.ts';

/**
 * The project's own MRZ line recogniser (training/mrz: a small CRNN trained with CTC on synthetic
 * OCR-B lines). Input: one grey line, 32 px tall, narrowed to 0.8 of its natural aspect (the rule
 * the training data follows, training/mrz/synth.py `to_input`); output: per-step class
 * probabilities over blank + A-Z 0-9 <, one step per 4 input columns.
 */

export const MRZ_MODEL_HEIGHT = 32;
/** Horizontal squeeze applied to the line's natural aspect (synth.py SQUEEZE). */
export const MRZ_MODEL_SQUEEZE = 0.8;
/**
 * Input columns per character the training lines span (training/mrz/synth.py, margins included:
 * 5th to 95th percentile ≈ 13-22). When the format fixes the character count, a crop whose
 * natural aspect falls outside is brought inside (tight crops of wide-spaced prints), and the
 * width is rounded to WIDTH_STEP columns: the runtime prepares every new input shape once
 * (~50-150 ms), so few distinct widths keep the reading fast.
 */
export const MRZ_MIN_PER_CHAR = 13;
export const MRZ_MAX_PER_CHAR = 22;
const WIDTH_STEP = 8;
/** Output classes: index 0 is the CTC blank. */
export const MRZ_MODEL_CLASSES = ['', ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<'];
/** Widest input given to the model (a 44-character line at 32 px is ~600 columns). */
const MAX_WIDTH = 1400;

/** The weights committed next to their recipe (training/mrz/README.md). */
export const MRZ_MODEL_PATH = fileURLToPath(
  new URL('../../../../training/mrz/mrz-crnn.onnx', import.meta.url),
);

/**
 * The weights the service loads: env IDV_MRZ_MODEL when set (a bundled deployment, where the
 * repository layout is gone, or a training snapshot under evaluation), else MRZ_MODEL_PATH.
 */
export function mrzModelPath(): string {
  return process.env.IDV_MRZ_MODEL || MRZ_MODEL_PATH;
}

/** How wide the model input is made (see mrzLineInput). */
export interface LineInputOptions {
  /** Characters the line holds, when the format is known (keeps the width in the training range). */
  chars?: number;
  /** Factor on the natural width (crop variants read the line a little narrower or wider). */
  scale?: number;
}

export interface LinePosteriors {
  /** Row-major [steps, classes] probabilities (softmax over the classes at every step). */
  probs: Float32Array;
  steps: number;
  classes: number;
}

/**
 * Cuts the line `quad` out of `img` as the model's input: upright, grey, 32 px tall. Tall lines
 * are first warped at an integer multiple of 32 and box-averaged down, so thin strokes are not
 * lost to bilinear sampling (the training data was reduced with area averaging).
 */
export function mrzLineInput(
  img: RgbImage,
  quad: Quad,
  opts: LineInputOptions = {},
): { data: Float32Array; width: number } {
  const qh = Math.max(1, quadHeight(quad));
  const qw = Math.max(1, quadWidth(quad));
  const natural = (qw * MRZ_MODEL_HEIGHT * MRZ_MODEL_SQUEEZE) / qh;
  let wanted = natural * (opts.scale ?? 1);
  if (opts.chars) {
    wanted = Math.min(opts.chars * MRZ_MAX_PER_CHAR, Math.max(opts.chars * MRZ_MIN_PER_CHAR, wanted));
    wanted = Math.round(wanted / WIDTH_STEP) * WIDTH_STEP;
  }
  const width = Math.max(16, Math.min(MAX_WIDTH, Math.round(wanted)));
  // Supersampling factors per axis, so that every output pixel averages the source pixels it
  // covers (cv2.INTER_AREA in training), up to 4 × 4 samples.
  const ky = Math.max(1, Math.min(4, Math.round(qh / MRZ_MODEL_HEIGHT)));
  const kx = Math.max(1, Math.min(4, Math.round(qw / width)));
  const big = warpQuad(img, quad, width * kx, MRZ_MODEL_HEIGHT * ky);
  const data = new Float32Array(MRZ_MODEL_HEIGHT * width);
  const norm = 1 / (kx * ky * 255 * 1000);
  const stride = width * kx;
  for (let y = 0; y < MRZ_MODEL_HEIGHT; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let dy = 0; dy < ky; dy++) {
        let s = ((y * ky + dy) * stride + x * kx) * 3;
        for (let dx = 0; dx < kx; dx++, s += 3) {
          sum += big.rgb[s]! * 299 + big.rgb[s + 1]! * 587 + big.rgb[s + 2]! * 114;
        }
      }
      data[y * width + x] = sum * norm;
    }
  }
  return { data, width };
}

/** Runs the recogniser on prepared line inputs, one call per line (no padding to disturb CTC). */
export async function mrzLinePosteriors(
  inputs: { data: Float32Array; width: number }[],
  modelPath = mrzModelPath(),
): Promise<LinePosteriors[]> {
  const model = await modelRunner('mrz-crnn', modelPath);
  const out: LinePosteriors[] = [];
  for (const input of inputs) {
    const r = await model.run(input.data, [1, 1, MRZ_MODEL_HEIGHT, input.width]);
    const steps = r.dims[1]!;
    const classes = r.dims[2]!;
    const probs = new Float32Array(steps * classes);
    for (let t = 0; t < steps; t++) {
      const row = t * classes;
      let max = Number.NEGATIVE_INFINITY;
      for (let c = 0; c < classes; c++) max = Math.max(max, r.data[row + c]!);
      let sum = 0;
      for (let c = 0; c < classes; c++) {
        const e = Math.exp(r.data[row + c]! - max);
        probs[row + c] = e;
        sum += e;
      }
      for (let c = 0; c < classes; c++) probs[row + c]! /= sum;
    }
    out.push({ probs, steps, classes });
  }
  return out;
}

/** Greedy CTC reading of posteriors (no constraint): the model's own best string. */
export function greedyText(p: LinePosteriors): string {
  let out = '';
  let prev = 0;
  for (let t = 0; t < p.steps; t++) {
    let best = 0;
    for (let c = 1; c < p.classes; c++)
      if (p.probs[t * p.classes + c]! > p.probs[t * p.classes + best]!) best = c;
    if (best !== 0 && best !== prev) out += MRZ_MODEL_CLASSES[best];
    prev = best;
  }
  return out;
}
