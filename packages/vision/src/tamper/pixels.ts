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
export function laplacianVariance(g: GreyImage): number {
  const { data: d, width: w, height: h } = g;
  let s = 0;
  let s2 = 0;
  let n = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const v = d[i - w]! + d[i + w]! + d[i - 1]! + d[i + 1]! - 4 * d[i]!;
      s += v;
      s2 += v * v;
      n++;
    }
  }
  return n ? s2 / n - (s / n) ** 2 : 0;
}
