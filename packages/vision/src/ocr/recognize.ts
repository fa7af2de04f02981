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
 * Lines of a batch are padded to the widest, and the padding costs as much as text. On
 * onnxruntime-node (CPU) a call costs little on its own: measured on 98 lines of three passport
 * pages, batches within 1.25× of width took 1.9–2.1 s, within 1.1× 1.77–1.85 s, and equal widths
 * only (in practice one line per call) 1.55–1.60 s. So only lines of equal width share a batch.
 */
const BATCH_WIDTH_RATIO = 1.0;
const BATCH_SIZE = 8;

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
export async function recognizeLines(lines: RgbImage[]): Promise<LineReading[]> {
  const classes = recognitionClasses();
  mrzAllowed ??= classIndices(classes, MRZ_CHARSET);
  const allowed = mrzAllowed;
  const model = await recognitionModel();
  const order = lines.map((l, i) => ({ i, w: l.width })).sort((a, b) => a.w - b.w);
  const results: LineReading[] = new Array(lines.length);
  let k = 0;
  while (k < order.length) {
    const first = order[k]!.w;
    const batch = [order[k]!];
    k++;
    while (k < order.length && batch.length < BATCH_SIZE && order[k]!.w <= first * BATCH_WIDTH_RATIO) {
      batch.push(order[k]!);
      k++;
    }
    const width = batch[batch.length - 1]!.w;
    const plane = REC_HEIGHT * width;
    const input = new Float32Array(batch.length * 3 * plane);
    batch.forEach(({ i }, b) => {
      const line = lines[i]!;
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
    const out = await model.run(input, [batch.length, 3, REC_HEIGHT, width]);
    const steps = out.dims[1]!;
    const C = out.dims[2]!;
    batch.forEach(({ i }, b) => {
      // Only the steps covering the real (unpadded) width: padding can hallucinate characters.
      const used = Math.min(steps, Math.ceil((lines[i]!.width / width) * steps));
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
