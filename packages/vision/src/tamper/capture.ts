import { downscaleGrey, type GreyImage, luma, toGrey } from '../image/grey.ts';
import type { NormalizedImage } from '../image/normalize.ts';
import { type Box, clampBox } from '../image/raster.ts';
import { HIGH_STRENGTH } from './descriptions.ts';
import { type GreyRows, laplacianVariance, laplacianVarianceOfRows } from './pixels.ts';

/**
 * Capture anomalies: glare, blur, part of the document out of frame. They cost points (warn)
 * but never fail the tamper check alone; the core applies that rule, we only report them.
 */

/** Working size for the capture measures, so thresholds do not depend on the upload size. */
const WORK_LONG_SIDE = 800;

/**
 * The capture measures' grey image: the photo's grey box-filtered down to the working size.
 * `grey`, the photo's full-size grey when the caller has it already; without it the reduction
 * is made straight from the colour pixels (the same values: each pixel's luma as a 32-bit float,
 * summed in the same order), without a full-size grey image the step may not need otherwise.
 */
export function workingGrey(image: NormalizedImage, grey?: GreyImage): GreyImage {
  const factor = Math.max(image.width, image.height) / WORK_LONG_SIDE;
  if (grey) return downscaleGrey(grey, factor);
  const f = Math.max(1, Math.floor(factor));
  if (f === 1) return toGrey(image);
  const { rgb, width: W } = image;
  const width = Math.floor(image.width / f);
  const height = Math.floor(image.height / f);
  const data = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let s = 0;
      for (let dy = 0; dy < f; dy++) {
        const row = ((y * f + dy) * W + x * f) * 3;
        for (let dx = 0; dx < f; dx++) {
          const p = row + dx * 3;
          s += Math.fround(luma(rgb[p]!, rgb[p + 1]!, rgb[p + 2]!));
        }
      }
      data[y * width + x] = s / (f * f);
    }
  }
  return { data, width, height };
}

/** Level from which a channel is clipped white: the sensor's or the JPEG's top. */
export const CLIPPED_WHITE = 250;
/** Whether the pixel at byte `i` of an RGB buffer is clipped white in all three channels. */
const clippedWhite = (rgb: Uint8Array, i: number) =>
  rgb[i]! >= CLIPPED_WHITE && rgb[i + 1]! >= CLIPPED_WHITE && rgb[i + 2]! >= CLIPPED_WHITE;

/**
 * Glare: a blob of clipped white (all channels ≥ CLIPPED_WHITE) inside the picture. Blobs touching the
 * border are ignored: white paper or a scanner bed around a document is not glare. Reported
 * from 0.5 % of the image (a small highlight on a laminate is common and harmless; a blob
 * this size can hide a character or a digit of a date).
 */
export const GLARE_MIN_FRACTION = 0.005;
/**
 * Strength 1: a blob ten times the smallest reported, 5 % of the picture, can hide a whole field
 * of a card. Glare is a capture sign: medium from half way (about 2.75 %, severityFor), it asks
 * for a better photo and never fails the check.
 */
const GLARE_UNMISTAKABLE_FRACTION = 0.05;

/**
 * Scans and renders of a document are white where the paper is white: clipped white there is
 * paper, not glare. When more than this share of the picture is clipped white, glare cannot be
 * told from paper and is not measured.
 */
const PAPER_WHITE_MAX_FRACTION = 0.2;
/** A glare blob is compact (a lamp's reflection); white paper around text is not (holes, arms). */
const GLARE_MIN_FILL = 0.45;
/**
 * A glare blob is also roughly round: a lamp or window reflected by a flat laminate makes a
 * spot at most a few times longer than wide. Clipped white that is a long thin band is paper
 * of the document itself: a white margin strip along the page edge of a scan, the white entry
 * fields of a rendered or printed form (one text line high, many characters long). Those bands
 * measure 5–40× longer than high; a blob more than 4× longer than wide is therefore not counted.
 * (A long streak from a tube light is missed by this rule: glare only ever warns, and a warning
 * on every clean scan with white fields costs more than a missed streak.)
 */
export const GLARE_MAX_ELONGATION = 4;

/** The largest glare blob: its share of the picture and its bounding box (photo pixels). */
export interface GlareSpot {
  fraction: number;
  /** Null when no blob was traced (none counted, or the early exit below). */
  box: Box | null;
}

/**
 * The share of a region's pixels (every other row and column) clipped white in all three
 * channels: the paper of an overexposed capture, or the white paper of a scan or a render. Only
 * recorded for evaluations (`<side>.clipped` in detectTamper's measures), to see how often and
 * how far captures are blown out; no sign reads it.
 */
export function clippedWhiteShare(image: NormalizedImage, region: Box): number {
  const { x: x0, y: y0, w, h } = clampBox(region, image.width, image.height);
  const [x1, y1] = [x0 + w, y0 + h];
  const rgb = image.rgb;
  let clipped = 0;
  let n = 0;
  for (let y = y0; y < y1; y += 2) {
    for (let x = x0, i = (y * image.width + x0) * 3; x < x1; x += 2, i += 6) {
      n++;
      if (clippedWhite(rgb, i)) clipped++;
    }
  }
  return n ? clipped / n : 0;
}

/** The largest glare blob's share of the picture (glareSpot's fraction). */
export function glareFraction(image: NormalizedImage, bar = 0): number {
  return glareSpot(image, bar).fraction;
}

/**
 * The largest glare blob's share of the picture, and where it is. With `bar` given, a picture
 * whose clipped white all together stays under that share holds no blob that could reach it: its
 * clipped share is returned (under the bar, at least the blob's) without the blobs being traced.
 * The glare sign only asks whether the share reaches GLARE_MIN_FRACTION, and most photos have
 * next to no clipped white.
 */
export function glareSpot(image: NormalizedImage, bar = 0): GlareSpot {
  const factor = Math.max(1, Math.floor(Math.max(image.width, image.height) / WORK_LONG_SIDE));
  const w = Math.floor(image.width / factor);
  const h = Math.floor(image.height / factor);
  const rgb = image.rgb;
  // The sampled pixels of row y: every `factor`-th pixel of every `factor`-th row.
  const rowStart = (y: number) => y * factor * image.width * 3;
  const stride = factor * 3;
  let clipped = 0;
  for (let y = 0; y < h; y++)
    for (let x = 0, i = rowStart(y); x < w; x++, i += stride) if (clippedWhite(rgb, i)) clipped++;
  if (clipped > PAPER_WHITE_MAX_FRACTION * w * h) return { fraction: 0, box: null };
  // Compared as the caller compares the result: a blob's share is at most this one.
  if (clipped / (w * h) < bar) return { fraction: clipped / (w * h), box: null };
  // Per sampled pixel: 0 not clipped, 1 clipped, 2 clipped and already reached by a flood fill
  // (one array for the mask and the fill's marks).
  const mask = new Uint8Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0, i = rowStart(y); x < w; x++, i += stride) if (clippedWhite(rgb, i)) mask[y * w + x] = 1;
  // Flood fill components (iterative stack), keep the largest compact one not touching the border.
  let best = 0;
  let bestBox: Box | null = null;
  // Each pixel enters the stack at most once: a fixed buffer of the clipped count holds it.
  const stack = new Int32Array(clipped);
  let top = 0;
  for (let start = 0; start < mask.length; start++) {
    if (mask[start] !== 1) continue;
    let area = 0;
    let touches = false;
    let minX = w;
    let maxX = 0;
    let minY = h;
    let maxY = 0;
    stack[top++] = start;
    mask[start] = 2;
    while (top > 0) {
      const p = stack[--top]!;
      area++;
      const x = p % w;
      const y = (p - x) / w;
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1) touches = true;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
      // The 4 neighbours within the picture (no array per pixel: white paper is many pixels).
      if (x > 0 && mask[p - 1] === 1) {
        mask[p - 1] = 2;
        stack[top++] = p - 1;
      }
      if (x < w - 1 && mask[p + 1] === 1) {
        mask[p + 1] = 2;
        stack[top++] = p + 1;
      }
      if (y > 0 && mask[p - w] === 1) {
        mask[p - w] = 2;
        stack[top++] = p - w;
      }
      if (y < h - 1 && mask[p + w] === 1) {
        mask[p + w] = 2;
        stack[top++] = p + w;
      }
    }
    const bw = maxX - minX + 1;
    const bh = maxY - minY + 1;
    const fill = area / (bw * bh);
    const elongation = Math.max(bw, bh) / Math.min(bw, bh);
    if (!touches && fill >= GLARE_MIN_FILL && elongation <= GLARE_MAX_ELONGATION && area > best) {
      best = area;
      bestBox = { x: minX * factor, y: minY * factor, w: bw * factor, h: bh * factor };
    }
  }
  return { fraction: best / (w * h), box: bestBox };
}

/**
 * Whether a box lies in or near a glare blob: within its halo, taken as the blob's box grown by
 * half its size on every side (twice its radius). A lamp's reflection fades the print around its
 * clipped core too, and a glyph faded there reads shorter or thinner than its neighbours.
 */
export function nearGlare(box: Box, glare: Box): boolean {
  const gx = glare.w / 2;
  const gy = glare.h / 2;
  return (
    box.x < glare.x + glare.w + gx &&
    box.x + box.w > glare.x - gx &&
    box.y < glare.y + glare.h + gy &&
    box.y + box.h > glare.y - gy
  );
}

export function glareStrength(fraction: number): number | null {
  if (fraction < GLARE_MIN_FRACTION) return null;
  return Math.min(1, (fraction - GLARE_MIN_FRACTION) / (GLARE_UNMISTAKABLE_FRACTION - GLARE_MIN_FRACTION));
}

/**
 * Blur: variance of the Laplacian at an 800 px working size. Sharp document photos and scans
 * measure 300–5000 (text edges); a defocused or shaken photo falls under 60, where small
 * print is no longer crisp. (The API's hard `unreadable` refusal is the quality step's job and
 * uses a far lower bar; this sign only says "could have been sharper".)
 */
export const BLUR_MAX_LAPLACIAN_VAR = 60;
/**
 * Strength 1 at a sixth of the bar. Blur is a capture sign: medium from half way (about 35,
 * severityFor), it asks for a sharper photo and never fails the check.
 */
const BLUR_UNMISTAKABLE = 10;

export function blurStrength(lapVar: number): number | null {
  if (lapVar >= BLUR_MAX_LAPLACIAN_VAR) return null;
  return Math.min(1, (BLUR_MAX_LAPLACIAN_VAR - lapVar) / (BLUR_MAX_LAPLACIAN_VAR - BLUR_UNMISTAKABLE));
}

/**
 * Whether a side's capture is poor enough that its fine print cannot settle a fail: blur or glare
 * at medium severity (strength from HIGH_STRENGTH), the level at which the capture sign itself
 * warns. Blur runs a pale print's thin coloured lines into the paper and joins glyphs to their
 * neighbours; glare washes out a patch of the page. The colour left on the page (page-colour.ts)
 * and a glyph's height (font-consistency.ts) then measure the capture, not the document, and a
 * genuine pale print or a genuine date read as a copy or a forgery: on the generated tuning
 * draw of bona fide captures under hazards (docs/benchmarks.md, issue 14), such fails were
 * glare's or blur's doing, which the spec says never fail the check alone. Those cues are then
 * held at review; a copy or a forgery under a poor capture still raises its sign.
 */
export function dullsFinePrint(blur: number | null, glare: number | null): boolean {
  return (blur ?? 0) >= HIGH_STRENGTH || (glare ?? 0) >= HIGH_STRENGTH;
}

/**
 * The blur measure (laplacianVariance at the working size). With `bar` given, a variance shown
 * at or above the bar by part of the rows is returned as soon as it is (some value at or above
 * the bar, laplacianVarianceOfRows): the blur sign only compares it to BLUR_MAX_LAPLACIAN_VAR.
 */
export function sharpness(image: NormalizedImage, grey?: GreyImage, bar?: number): number {
  // A photo already at the working size with no grey made: its luma rows made one at a time,
  // as the rows stop (toGrey's values, a row at a time).
  if (!grey && Math.max(image.width, image.height) / WORK_LONG_SIDE < 2)
    return laplacianVarianceOfRows(lumaRows(image), image.width, image.height, bar);
  return laplacianVariance(workingGrey(image, grey), bar);
}

/** The photo's grey rows (toGrey's values) made on demand in three buffers (GreyRows). */
function lumaRows(image: NormalizedImage): GreyRows {
  const { rgb, width } = image;
  const buffers = [new Float32Array(width), new Float32Array(width), new Float32Array(width)];
  return (y) => {
    const row = buffers[y % 3]!;
    for (let x = 0, p = y * width * 3; x < width; x++, p += 3)
      row[x] = luma(rgb[p]!, rgb[p + 1]!, rgb[p + 2]!);
    return row;
  };
}

/**
 * Partial document: text of the document reaches the edge of the photo, so part of the
 * document is outside the frame (a field cut by the border). Needs the text boxes from the
 * reading step; a 1 % margin absorbs box imprecision.
 */
export function touchesBorder(box: Box, width: number, height: number): boolean {
  const mx = width * 0.01;
  const my = height * 0.01;
  return box.x <= mx || box.y <= my || box.x + box.w >= width - mx || box.y + box.h >= height - my;
}
