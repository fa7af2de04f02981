import type { RgbImage } from './raster.ts';
import { type Box, clampBox } from './raster.ts';

/**
 * The one grey-level image of the vision package: Rec. 601 luma as 32-bit floats (0..255),
 * row-major. Floats, not bytes, because the tamper measures compare grey levels to a fraction
 * of a level; the blur gate, measured on 8-bit grey, rounds them itself.
 */
export interface GreyImage {
  data: Float32Array;
  width: number;
  height: number;
}

/** ITU-R BT.601 luma of one RGB triple, 0..255 (the weights every grey conversion here uses). */
export function luma(r: number, g: number, b: number): number {
  return 0.299 * r + 0.587 * g + 0.114 * b;
}

/** Grey image of an RGB image (a NormalizedImage is one). */
export function toGrey(img: RgbImage): GreyImage {
  const { rgb, width, height } = img;
  const data = new Float32Array(width * height);
  for (let i = 0, p = 0; i < data.length; i++, p += 3) {
    data[i] = luma(rgb[p]!, rgb[p + 1]!, rgb[p + 2]!);
  }
  return { data, width, height };
}

/** Axis-aligned crop (integer box clamped to the image). */
export function cropGrey(g: GreyImage, box: Box): GreyImage {
  const b = clampBox(box, g.width, g.height);
  const data = new Float32Array(b.w * b.h);
  for (let y = 0; y < b.h; y++)
    data.set(g.data.subarray((b.y + y) * g.width + b.x, (b.y + y) * g.width + b.x + b.w), y * b.w);
  return { data, width: b.w, height: b.h };
}

/** Box-filter downscale by an integer factor (≥ 1). */
export function downscaleGrey(g: GreyImage, factor: number): GreyImage {
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
