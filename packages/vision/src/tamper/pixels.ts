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
export function highPass(g: GreyImage, box: Box): number[] {
  const b = clampBox(box, g.width, g.height);
  const out: number[] = [];
  const w = g.width;
  const d = g.data;
  for (let y = Math.max(1, b.y); y < Math.min(g.height - 1, b.y + b.h); y++) {
    for (let x = Math.max(1, b.x); x < Math.min(w - 1, b.x + b.w); x++) {
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
      out.push(Math.abs(v));
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
