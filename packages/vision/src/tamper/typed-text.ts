import type { GreyImage } from '../image/grey.ts';
import type { Box } from '../image/raster.ts';
import { quantile } from '../image/stats.ts';
import { REVIEW_MAX_STRENGTH } from './descriptions.ts';

/**
 * `field_overwritten` on plain paper: a value painted over and typed again leaves no tone step
 * and no lost security print, so what differs is the typed text itself. Measured per field on
 * the field straightened with its ring (field-background.ts), compared with the same side's
 * other fields by the caller:
 * - ink contrast: the paper (75th percentile) less the ink core (5th percentile), in grey levels;
 * - edge sharpness: the ink edges' slope over that contrast (1 / the edge width in px): text
 *   printed and photographed with the rest of the page is as blurred as the page, text typed
 *   into the photo afterwards is as sharp as the renderer made it.
 */
export interface TypedTextMeasure {
  /** Paper less ink core, grey levels. */
  contrast: number;
  /** Median grey-level slope per px across the ink edges, over `contrast` (≈ 1 / edge width). */
  sharpness: number;
}

/** Below this contrast (grey levels) the field holds no ink to measure. */
const MIN_CONTRAST = 40;
/** Edge pixels needed for a median slope (a few glyph outlines). */
const MIN_EDGE_PIXELS = 40;

/** `canvas`: the field straightened with its ring (field-background.ts) or the photo; `inner`: the field on it. */
export function measureTypedText({
  canvas,
  inner,
}: {
  canvas: GreyImage;
  inner: Box;
}): TypedTextMeasure | null {
  const { data, width: W } = canvas;
  const x0 = Math.max(1, Math.round(inner.x));
  const y0 = Math.max(1, Math.round(inner.y));
  const x1 = Math.min(W - 1, Math.round(inner.x + inner.w));
  const y1 = Math.min(canvas.height - 1, Math.round(inner.y + inner.h));
  if (x1 - x0 < 8 || y1 - y0 < 8) return null;
  const values = new Float32Array((x1 - x0) * (y1 - y0));
  for (let y = y0, n = 0; y < y1; y++) for (let x = x0; x < x1; x++) values[n++] = data[y * W + x]!;
  const paper = quantile(values, 0.75);
  const ink = quantile(values, 0.05);
  const contrast = paper - ink;
  if (contrast < MIN_CONTRAST) return null;
  // Edge pixels: mid-tones between ink and paper (the middle half of the step), where a
  // blurred edge has its steepest slope.
  const lo = ink + 0.25 * contrast;
  const hi = paper - 0.25 * contrast;
  const slopes: number[] = [];
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = y * W + x;
      const v = data[i]!;
      if (v < lo || v > hi) continue;
      // Sobel, divided by 8: grey levels per pixel.
      const gx =
        (data[i - W + 1]! +
          2 * data[i + 1]! +
          data[i + W + 1]! -
          data[i - W - 1]! -
          2 * data[i - 1]! -
          data[i + W - 1]!) /
        8;
      const gy =
        (data[i + W - 1]! +
          2 * data[i + W]! +
          data[i + W + 1]! -
          data[i - W - 1]! -
          2 * data[i - W]! -
          data[i - W + 1]!) /
        8;
      slopes.push(Math.hypot(gx, gy));
    }
  }
  if (slopes.length < MIN_EDGE_PIXELS) return null;
  return { contrast, sharpness: quantile(slopes, 0.5) / contrast };
}

/** A measured field of one side. */
export interface MeasuredField {
  field: string;
  side: 'front' | 'back';
  measure: TypedTextMeasure;
  /** The field's centre on the photo (px): a value is compared with its nearest neighbours. */
  at?: [number, number];
  /** Length over height of the field's box. */
  aspect?: number;
}

/**
 * Fields compared: the printed values. MRZ lines are left out on both sides of the comparison:
 * OCR-B printed apart from the values, sharper than them on the generated passports (+8 %), and
 * an MRZ changed by hand is caught by its check digits.
 */
const isValue = (field: string) => !field.startsWith('mrz');
/** A field is judged against the median of at least this many other values of its side. */
const MIN_OTHER_VALUES = 2;
/**
 * ... and of at most this many, the nearest: focus (a tilted page is sharp in one part, soft in
 * another) and light change smoothly across a photo, so the values next to a field were
 * photographed most like it. Three keep a median when one neighbour is itself odd.
 */
const NEAREST_VALUES = 3;
/**
 * Values shorter than this many heights (the box, padded by about one height on each side by the
 * reading step) hold one to three glyphs: too few edges for a stable median (a sex field's
 * single letter measured 0.24 on a bona fide capture).
 */
const MIN_VALUE_ASPECT = 4;

/**
 * How far a value's text departs from its side's other values: |contrast ratio − 1| +
 * |sharpness ratio − 1|. Either way counts (the forger's ink may be lighter or darker, the
 * typed text sharper, or softer when it was scaled into place), and the two add: the typed
 * text of the corpus is at once a little lighter and a little sharper (contrast 0.73–0.93,
 * sharpness 1.05–1.19), where neither alone leaves the genuine spread.
 *
 * Calibrated on the tuning half (docs/benchmarks.md, issue 14, typed-text cue), each value
 * against its nearest values: with truth boxes, 76 bona fide values of 15 captured documents
 * (drawn colour cards, synthetic documents of the tuning layouts) measure at most 0.08 (a
 * document number printed darker than the names), 10 of 12 overwritten values 0.15–0.34. With
 * the reading step's boxes on bona fide synthetic documents photographed by the reading
 * benchmark's camera (uneven focus and light), 8 of 91 values of 4 of 27 documents pass 0.15
 * (2 documents still at 0.4): hence opt-in (index.ts), not a tighter bar, which would catch
 * nothing.
 */
export const TYPED_TEXT_DEVIATION = 0.15;
/** Deviation at which the sign would be certain: the strength grows linearly up to it. */
const TYPED_TEXT_UNMISTAKABLE = 0.45;
/**
 * The sign stays below high severity (review, never a fail alone): the real pages of the tuning
 * half carry only a few value fields each, so how far genuine fields of another ink or weight
 * spread on real documents is measured on too few of them to fail a document on this cue.
 */
export const TYPED_MAX_STRENGTH = REVIEW_MAX_STRENGTH;

/**
 * Each value's ink contrast and edge sharpness over the median of its side's other values
 * (values with fewer than MIN_OTHER_VALUES others are left out).
 */
export function typedTextRatios(
  fields: MeasuredField[],
): { field: string; side: 'front' | 'back'; contrast: number; sharpness: number }[] {
  const values = fields.filter((f) => isValue(f.field));
  const out = [];
  for (const f of values) {
    if (f.aspect !== undefined && f.aspect < MIN_VALUE_ASPECT) continue;
    const distance = (o: MeasuredField) =>
      f.at && o.at ? Math.hypot(f.at[0] - o.at[0], f.at[1] - o.at[1]) : 0;
    const others = values
      .filter((o) => o !== f && o.side === f.side)
      .sort((a, b) => distance(a) - distance(b))
      .slice(0, NEAREST_VALUES);
    if (others.length < MIN_OTHER_VALUES) continue;
    out.push({
      field: f.field,
      side: f.side,
      contrast:
        f.measure.contrast /
        quantile(
          others.map((o) => o.measure.contrast),
          0.5,
        ),
      sharpness:
        f.measure.sharpness /
        quantile(
          others.map((o) => o.measure.sharpness),
          0.5,
        ),
    });
  }
  return out;
}

/**
 * Values whose text differs from the side's other values as typed text does: one sign per such
 * field, strength growing with the deviation past its bar, capped at TYPED_MAX_STRENGTH.
 */
export function typedTextOutliers(
  fields: MeasuredField[],
): { field: string; side: 'front' | 'back'; strength: number }[] {
  const out: { field: string; side: 'front' | 'back'; strength: number }[] = [];
  for (const r of typedTextRatios(fields)) {
    const deviation = typedTextDeviation(r);
    if (deviation <= TYPED_TEXT_DEVIATION) continue;
    const s = (deviation - TYPED_TEXT_DEVIATION) / (TYPED_TEXT_UNMISTAKABLE - TYPED_TEXT_DEVIATION);
    out.push({ field: r.field, side: r.side, strength: Math.min(TYPED_MAX_STRENGTH, s) });
  }
  return out;
}

/** |contrast ratio − 1| + |sharpness ratio − 1| (TYPED_TEXT_DEVIATION). */
export const typedTextDeviation = (r: { contrast: number; sharpness: number }) =>
  Math.abs(r.contrast - 1) + Math.abs(r.sharpness - 1);
