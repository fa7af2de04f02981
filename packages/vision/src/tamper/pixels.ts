import type { NormalizedImage } from '../image/normalize.ts';

/**
 * Grey-level helpers shared by the tamper detectors. All work on a Float32 luminance plane.
 */

export interface Grey {
  data: Float32Array;
  width: number;
  height: number;
}

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Rec. 601 luma, 0..255. */
export function toGrey(image: NormalizedImage): Grey {
  const { rgb, width, height } = image;
  const data = new Float32Array(width * height);
  for (let i = 0, p = 0; i < data.length; i++, p += 3) {
    data[i] = 0.299 * rgb[p]! + 0.587 * rgb[p + 1]! + 0.114 * rgb[p + 2]!;
  }
  return { data, width, height };
}

/** Box-filter downscale by an integer factor (≥ 1). */
export function downscaleGrey(g: Grey, factor: number): Grey {
  const f = Math.max(1, Math.floor(factor));
  if (f === 1) return g;
  const width = Math.floor(g.width / f);
  const height = Math.floor(g.height / f);
  const data = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let s = 0;
      for (let dy = 0; dy < f; dy++) {
        const row = (y * f + dy) * g.width + x * f;
        for (let dx = 0; dx < f; dx++) s += g.data[row + dx]!;
      }
      data[y * width + x] = s / (f * f);
    }
  }
  return { data, width, height };
}

export function clampBox(b: Box, width: number, height: number): Box {
  const x = Math.max(0, Math.floor(b.x));
  const y = Math.max(0, Math.floor(b.y));
  const x1 = Math.min(width, Math.ceil(b.x + b.w));
  const y1 = Math.min(height, Math.ceil(b.y + b.h));
  return { x, y, w: Math.max(0, x1 - x), h: Math.max(0, y1 - y) };
}

/**
 * Laplacian-style high-pass response |[1 -2 1; -2 4 -2; 1 -2 1] * I| per pixel inside `box`.
 * That kernel cancels constant and linear shading, so what is left is fine texture and noise
 * (Immerkær's fast noise estimator uses it).
 */
export function highPass(g: Grey, box: Box): number[] {
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

export function quantile(values: number[] | Float32Array, q: number): number {
  if (values.length === 0) return Number.NaN;
  const s = Float64Array.from(values).sort();
  return s[Math.min(s.length - 1, Math.max(0, Math.floor(q * (s.length - 1))))]!;
}

export function mean(values: number[] | Float32Array): number {
  let s = 0;
  for (const v of values) s += v;
  return values.length ? s / values.length : Number.NaN;
}

/** Variance of the 4-neighbour Laplacian: the classic sharpness measure (low = blurry). */
export function laplacianVariance(g: Grey): number {
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
