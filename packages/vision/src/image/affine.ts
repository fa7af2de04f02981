import type { NormalizedImage } from './normalize.ts';
import { type Box, sampleRgb } from './raster.ts';

/**
 * Float RGB model inputs sampled from a `NormalizedImage` (RGB, row-major, 8 bits): affine warps,
 * crop-and-resize and area downscales for the face models. Plain loops: the crops are small
 * (≤ 256 px).
 */

/** 2-D affine map from destination pixel (x, y) to source (a*x + b*y + c, d*x + e*y + f). */
export interface Affine {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
}

/**
 * Samples `src` through an affine map into a `size.w × size.h` RGB float image (values 0..255,
 * HWC order). Bilinear; pixels outside the source take the nearest edge value (TF's
 * crop-and-resize uses an extrapolation value instead, but edge replication avoids dark
 * borders around faces close to the image edge).
 */
export function warpAffine(src: NormalizedImage, map: Affine, w: number, h: number): Float32Array {
  const out = new Float32Array(w * h * 3);
  for (let y = 0, o = 0; y < h; y++) {
    for (let x = 0; x < w; x++, o += 3) {
      sampleRgb(src, map.a * x + map.b * y + map.c, map.d * x + map.e * y + map.f, out, o);
    }
  }
  return out;
}

/** Axis-aligned crop `[x, y, w, h]` (source pixels, may exceed the image) resized to `outW × outH`. */
export function cropResize(src: NormalizedImage, box: Box, outW: number, outH: number): Float32Array {
  // Pixel centres: destination pixel i covers source [x + i*sx, x + (i+1)*sx); sample its centre.
  const sx = box.w / outW;
  const sy = box.h / outH;
  return warpAffine(
    src,
    { a: sx, b: 0, c: box.x + sx / 2 - 0.5, d: 0, e: sy, f: box.y + sy / 2 - 0.5 },
    outW,
    outH,
  );
}

/** Area-averaging downscale to a square `size × size` RGB float image (used for detector input). */
export function resizeArea(src: NormalizedImage, outW: number, outH: number): Float32Array {
  const { rgb, width, height } = src;
  if (outW >= width || outH >= height)
    return cropResize(src, { x: 0, y: 0, w: width, h: height }, outW, outH);
  const out = new Float32Array(outW * outH * 3);
  for (let oy = 0; oy < outH; oy++) {
    const y0 = Math.floor((oy * height) / outH);
    const y1 = Math.max(y0 + 1, Math.floor(((oy + 1) * height) / outH));
    for (let ox = 0; ox < outW; ox++) {
      const x0 = Math.floor((ox * width) / outW);
      const x1 = Math.max(x0 + 1, Math.floor(((ox + 1) * width) / outW));
      let r = 0;
      let g = 0;
      let b = 0;
      for (let y = y0; y < y1; y++) {
        let i = (y * width + x0) * 3;
        for (let x = x0; x < x1; x++) {
          r += rgb[i]!;
          g += rgb[i + 1]!;
          b += rgb[i + 2]!;
          i += 3;
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      const o = (oy * outW + ox) * 3;
      out[o] = r / n;
      out[o + 1] = g / n;
      out[o + 2] = b / n;
    }
  }
  return out;
}
