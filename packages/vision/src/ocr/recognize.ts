import { type Quad, quadHeight, quadWidth, type RgbImage, warpQuad } from '../image/raster.ts';
import { classIndices, ctcDecode, type Decoded } from './ctc.ts';
import { recognitionClasses, recognitionModel } from './models.ts';

/**
 * Text-line recognition with the PP-OCRv4 CRNN/SVTR model: each line is warped upright to a
 * height of 48 px (the model's fixed input height), scaled to plain x/255 (what this export
 * wants: measured better than PaddleOCR's usual (x/255-0.5)/0.5), and CTC-decoded.
 */

export const REC_HEIGHT = 48;
/** Widest line given to the model; a 44-character MRZ line is ~30:1 so it fits without squeezing. */
export const REC_MAX_WIDTH = 1600;
/**
 * How the lines are grouped into model runs (planBatches): at most `maxLines` per run, the
 * widest at most `widthRatio` times the narrowest (every line is padded to the widest).
 */
export interface RecBatching {
  maxLines: number;
  widthRatio: number;
}

/**
 * Only lines of equal width share a run (in practice one line per run): no padding, so every
 * line reads exactly as it does alone. Padded batches cost more CPU on onnxruntime-node, not less:
 * the recogniser's cost grows with the pixels it is given and a run costs little on its own.
 * Measured (scripts/bench/rec-batch.ts, 61 printed lines of 5 pages, CPU ms of the process,
 * interleaved): batches of 8 within ×1.1 of width 1.12–1.16× the CPU of one line per run,
 * within ×1.25 1.16–1.34×, within ×1.5 1.21–1.76×, with 2 threads and with 1; and 4–15 lines of
 * the 61 read differently (earlier, on 98 lines of three passports: ×1.25 1.9–2.1 s, ×1.1
 * 1.77–1.85 s, equal widths 1.55–1.60 s).
 */
export const EQUAL_WIDTHS: RecBatching = { maxLines: 8, widthRatio: 1 };
/** Padded batches (PP-OCR's own grouping by sorted width), kept to measure on other hardware. */
export const PADDED_BATCHES: RecBatching = { maxLines: 8, widthRatio: 1.25 };
/** One model run per line (the reference the batched readings are compared with). */
export const ONE_LINE_PER_RUN: RecBatching = { maxLines: 1, widthRatio: 1 };

/**
 * The batching of recognizeLines: EQUAL_WIDTHS; IDV_REC_BATCH=1 selects PADDED_BATCHES, to
 * compare both on the same documents (`BENCH_B='IDV_REC_BATCH=1' npm run bench -- ab`).
 */
export function recBatching(env: Readonly<Record<string, string | undefined>> = process.env): RecBatching {
  return env.IDV_REC_BATCH === '1' ? PADDED_BATCHES : EQUAL_WIDTHS;
}

/**
 * Groups lines by width (all are REC_HEIGHT tall, so width is the aspect ratio): sorted from the
 * narrowest, a batch takes the next lines while the widest stays within `widthRatio` of the
 * batch's first and the batch holds at most `maxLines`. Returns indexes into `widths`.
 */
export function planBatches(widths: readonly number[], batching: RecBatching): number[][] {
  const order = widths.map((w, i) => ({ i, w })).sort((a, b) => a.w - b.w || a.i - b.i);
  const batches: number[][] = [];
  let k = 0;
  while (k < order.length) {
    const first = order[k]!.w;
    const batch = [order[k]!.i];
    k++;
    while (
      k < order.length &&
      batch.length < batching.maxLines &&
      order[k]!.w <= first * batching.widthRatio
    ) {
      batch.push(order[k]!.i);
      k++;
    }
    batches.push(batch);
  }
  return batches;
}

/**
 * Horizontal stretch for long monospaced lines (MRZ). The recogniser emits one step per 8 input
 * pixels; at the natural aspect an MRZ character gets ~3 steps, too few for CTC to separate
 * narrow letters and repeated characters (CITIZEN read ITIZEN, SPECIMEN read SPEMEN, LL read L).
 * Stretched 1.6× the development set's MRZ name lines went from 5 wrong to 1 (measured with
 * 1.0 / 1.3 / 1.6). Costs 1.6× the recognition time of those lines only.
 */
export const MRZ_STRETCH = 1.6;
/** Lines at least this elongated (length / height) are candidate MRZ lines and are stretched. */
export const MRZ_LINE_ASPECT = 12;

export const MRZ_CHARSET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

export interface LineImage {
  /** Upright line crop, any size; it is resized to REC_HEIGHT. */
  image: RgbImage;
}

/** Warps a text quad into an upright crop at recognition height. */
export function cropLine(img: RgbImage, quad: Quad, maxWidth = REC_MAX_WIDTH, stretch = 1): RgbImage {
  const qh = Math.max(1, quadHeight(quad));
  const qw = Math.max(1, quadWidth(quad));
  const width = Math.max(8, Math.min(maxWidth, Math.round((stretch * REC_HEIGHT * qw) / qh)));
  return warpQuad(img, quad, width, REC_HEIGHT);
}

/** x/255 lookup table (the recognition export wants plain x/255 input). */
const SCALE = Float32Array.from({ length: 256 }, (_, v) => v / 255);

let mrzAllowed: Int32Array | null = null;

export interface LineReading {
  /** Decoded over the whole dictionary (printed text, any script). */
  full: Decoded;
  /** The same network output decoded with only A-Z 0-9 < allowed (the MRZ decoder). */
  mrz: Decoded;
  /**
   * The network's per-step probabilities over blank + A-Z 0-9 < (renormalised over these 38
   * classes, in MRZ_MODEL_CLASSES order): what the format-constrained MRZ decoder reads.
   */
  mrzPosteriors: { probs: Float32Array; steps: number; classes: number };
}

/**
 * Recognises upright line crops (each already REC_HEIGHT tall, e.g. from cropLine). The network
 * runs once per line; both decodings come from the same output, so the MRZ reading costs nothing.
 */
export async function recognizeLines(
  lines: RgbImage[],
  batching: RecBatching = recBatching(),
): Promise<LineReading[]> {
  const classes = recognitionClasses();
  mrzAllowed ??= classIndices(classes, MRZ_CHARSET);
  const allowed = mrzAllowed;
  const model = await recognitionModel();
  const results: LineReading[] = new Array(lines.length);
  for (const batch of planBatches(
    lines.map((l) => l.width),
    batching,
  )) {
    const crops = batch.map((i) => lines[i]!);
    const { input, dims } = recognitionInput(crops);
    const out = await model.run(input, dims);
    const steps = out.dims[1]!;
    const C = out.dims[2]!;
    const width = dims[3]!;
    batch.forEach((i, b) => {
      // Only the steps covering the line's own width: the padding right of a narrower line
      // could read as characters (or stretch the last one).
      const used = stepsCovering(lines[i]!.width, width, steps);
      const slice = out.data.subarray(b * steps * C, (b * steps + used) * C);
      results[i] = {
        full: ctcDecode(slice, used, classes),
        mrz: ctcDecode(slice, used, classes, allowed),
        mrzPosteriors: restrictPosteriors(slice, used, C, allowed),
      };
    });
  }
  return results;
}

/**
 * The model input for line crops of one batch: N×3×REC_HEIGHT×(widest). A narrower line is
 * padded with zeros (black in this export's x/255 scale) on its right; the padding still changes
 * its reading through the model's attention over the whole width (rec-batch.ts measured 4–15 of
 * 61 lines read differently, with zero, mid-grey, white or edge padding alike).
 */
export function recognitionInput(crops: readonly RgbImage[]): { input: Float32Array; dims: number[] } {
  const width = Math.max(...crops.map((c) => c.width));
  const plane = REC_HEIGHT * width;
  const input = new Float32Array(crops.length * 3 * plane);
  crops.forEach((line, b) => {
    if (line.height !== REC_HEIGHT) throw new Error(`line crop must be ${REC_HEIGHT} px tall`);
    const base = b * 3 * plane;
    for (let y = 0; y < REC_HEIGHT; y++) {
      for (let x = 0; x < line.width; x++) {
        const s = (y * line.width + x) * 3;
        const d = y * width + x;
        input[base + d] = SCALE[line.rgb[s]!]!;
        input[base + plane + d] = SCALE[line.rgb[s + 1]!]!;
        input[base + 2 * plane + d] = SCALE[line.rgb[s + 2]!]!;
      }
    }
  });
  return { input, dims: [crops.length, 3, REC_HEIGHT, width] };
}

/** Output steps that cover the first `lineWidth` px of an input `inputWidth` px wide. */
export function stepsCovering(lineWidth: number, inputWidth: number, steps: number): number {
  return Math.min(steps, Math.ceil((lineWidth / inputWidth) * steps));
}

/** Per-step probabilities of blank + `allowed`, renormalised to sum to 1 at every step. */
function restrictPosteriors(
  probs: Float32Array,
  steps: number,
  C: number,
  allowed: Int32Array,
): { probs: Float32Array; steps: number; classes: number } {
  const K = allowed.length + 1;
  const out = new Float32Array(steps * K);
  for (let t = 0; t < steps; t++) {
    const row = t * C;
    let sum = probs[row]!;
    for (let q = 0; q < allowed.length; q++) sum += probs[row + allowed[q]!]!;
    const inv = sum > 0 ? 1 / sum : 0;
    out[t * K] = probs[row]! * inv;
    for (let q = 0; q < allowed.length; q++) out[t * K + q + 1] = probs[row + allowed[q]!]! * inv;
  }
  return { probs: out, steps, classes: K };
}
