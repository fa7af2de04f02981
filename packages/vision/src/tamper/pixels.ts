import type { GreyImage } from '../image/grey.ts';
import { type Box, clampBox } from '../image/raster.ts';

/**
 * High-pass measures on grey images shared by the tamper detectors.
 */

/**
 * Laplacian-style high-pass response |[1 -2 1; -2 4 -2; 1 -2 1] * I| per pixel inside `box`.
 * That kernel cancels constant and linear shading, so what is left is fine texture and noise
 * (Immerkær's fast noise estimator uses it).
 */
export function highPass(g: GreyImage, box: Box): Float64Array {
  const b = clampBox(box, g.width, g.height);
  const w = g.width;
  const d = g.data;
  const x0 = Math.max(1, b.x);
  const x1 = Math.min(w - 1, b.x + b.w);
  const y0 = Math.max(1, b.y);
  const y1 = Math.min(g.height - 1, b.y + b.h);
  const out = new Float64Array(Math.max(0, x1 - x0) * Math.max(0, y1 - y0));
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = y * w + x;
      const v =
        d[i - w - 1]! -
        2 * d[i - w]! +
        d[i - w + 1]! -
        2 * d[i - 1]! +
        4 * d[i]! -
        2 * d[i + 1]! +
        d[i + w - 1]! -
        2 * d[i + w]! +
        d[i + w + 1]!;
      out[n++] = Math.abs(v);
    }
  }
  return out;
}

/** Variance of the 4-neighbour Laplacian: the classic sharpness measure (low = blurry). */
export function laplacianVariance(g: GreyImage, bar = Number.POSITIVE_INFINITY): number {
  const { data, width: w } = g;
  return laplacianVarianceOfRows((y) => data.subarray(y * w, (y + 1) * w), w, g.height, bar);
}

/**
 * Rows of a grey image, asked for once each, top to bottom: a row is read until two more rows
 * have been asked for (a source may make them on demand in three buffers).
 */
export type GreyRows = (y: number) => Float32Array;

/**
 * How far above its bar the Laplacian variance must be shown before the rows stop: the partial
 * sums and the whole image's in floating point differ from the exact ones by well under a
 * thousandth of a grey level squared (at most 10⁶ terms, each under 2040², to 2⁻⁵³), so a margin
 * of 1 keeps the stop on the right side of the bar.
 */
const BAR_MARGIN = 1;

/**
 * laplacianVariance over rows given one at a time (GreyRows), in the same order, so the same
 * value. With `bar` given it stops once the rows read show the variance at or above the bar,
 * and returns a value at or above it: by the law of total variance the whole image's variance
 * is at least the rows' variance times their share of the pixels, whatever the other rows hold.
 * The blur sign only asks whether the variance falls under its bar, and a sharp photo's text
 * shows it above after a part of its rows.
 */
export function laplacianVarianceOfRows(
  rows: GreyRows,
  w: number,
  h: number,
  bar = Number.POSITIVE_INFINITY,
): number {
  const total = Math.max(0, w - 2) * Math.max(0, h - 2);
  if (total === 0) return 0;
  let s = 0;
  let s2 = 0;
  let n = 0;
  let up = rows(0);
  let mid = rows(1);
  for (let y = 1; y < h - 1; y++) {
    const down = rows(y + 1);
    for (let x = 1; x < w - 1; x++) {
      const v = up[x]! + down[x]! + mid[x - 1]! + mid[x + 1]! - 4 * mid[x]!;
      s += v;
      s2 += v * v;
      n++;
    }
    // The rows so far: their variance times their share, (s2 − s²/n) / total.
    const atLeast = (s2 - (s * s) / n) / total;
    if (atLeast >= bar + BAR_MARGIN) return atLeast;
    up = mid;
    mid = down;
  }
  return s2 / n - (s / n) ** 2;
}
