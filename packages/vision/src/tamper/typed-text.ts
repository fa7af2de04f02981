import type { GreyImage } from '../image/grey.ts';
import type { Box } from '../image/raster.ts';
import { quantile } from '../image/stats.ts';

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
 * Ink contrast under this share of the side's other values: ink lighter than the document's
 * printing. Tuning half (docs/benchmarks.md, issue 14, typed-text cues): bona fide values
 * measure 0.89–1.07 of their side (the lowest a real passport's sex field, the highest a
 * document number printed darker), overwritten ones 0.72–1.2, a third under 0.80.
 */
export const TYPED_MAX_CONTRAST_RATIO = 0.8;
/**
 * Edge sharpness over this multiple of the side's other values: text sharper than the page it
 * was photographed with. Tuning half: bona fide values 0.93–1.13, overwritten ones 0.83–1.40, a
 * third over 1.2.
 */
export const TYPED_MIN_SHARPNESS_RATIO = 1.2;
/**
 * The sign stays below high severity (review, never a fail alone): the real pages of the tuning
 * half carry only a few value fields each, so how far genuine fields of another ink or weight
 * spread on real documents is measured on too few of them to fail a document on this cue.
 */
export const TYPED_MAX_STRENGTH = 0.49;

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
    const others = values.filter((o) => o !== f && o.side === f.side);
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
 * field, strength growing with how far past either bar it is (0.2 below the contrast bar or 0.3
 * over the sharpness bar would be certain), capped at TYPED_MAX_STRENGTH.
 */
export function typedTextOutliers(
  fields: MeasuredField[],
): { field: string; side: 'front' | 'back'; strength: number }[] {
  const out: { field: string; side: 'front' | 'back'; strength: number }[] = [];
  for (const r of typedTextRatios(fields)) {
    const byContrast =
      r.contrast < TYPED_MAX_CONTRAST_RATIO ? (TYPED_MAX_CONTRAST_RATIO - r.contrast) / 0.2 : 0;
    const bySharpness =
      r.sharpness > TYPED_MIN_SHARPNESS_RATIO ? (r.sharpness - TYPED_MIN_SHARPNESS_RATIO) / 0.3 : 0;
    const s = Math.max(byContrast, bySharpness);
    if (s > 0) out.push({ field: r.field, side: r.side, strength: Math.min(TYPED_MAX_STRENGTH, s) });
  }
  return out;
}
