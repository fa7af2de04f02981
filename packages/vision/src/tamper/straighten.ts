import type { GreyImage } from '../image/grey.ts';
import { luma } from '../image/grey.ts';
import { homographyFromRect, type Quad, type RgbImage } from '../image/raster.ts';

/**
 * `toGrey(warpQuad(img, quad, width, height))` in one pass: the same bilinear samples, each
 * channel cut to a byte as warpQuad's output stores it, then the same luma. The field detectors
 * straighten every read line and field; the intermediate RGB copy was a third of that work.
 */
export function warpQuadGrey(img: RgbImage, quad: Quad, width: number, height: number): GreyImage {
  const [m0, m1, m2, m3, m4, m5, m6, m7, m8] = homographyFromRect(width, height, quad) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const data = new Float32Array(width * height);
  const { rgb, width: w, height: h } = img;
  for (let y = 0; y < height; y++) {
    const v = y + 0.5;
    // The row's terms, once per row; each sum keeps warpQuad's order ((a·u + b·v) + c).
    const v1 = m1 * v;
    const v4 = m4 * v;
    const v7 = m7 * v;
    for (let x = 0; x < width; x++) {
      const u = x + 0.5;
      const den = m6 * u + v7 + m8;
      const fx = (m0 * u + v1 + m2) / den - 0.5;
      const fy = (m3 * u + v4 + m5) / den - 0.5;
      // Bilinear sample with clamping, as raster.ts's sampleRgb.
      const sx = Math.min(Math.max(fx, 0), w - 1);
      const sy = Math.min(Math.max(fy, 0), h - 1);
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const x1 = Math.min(x0 + 1, w - 1);
      const y1 = Math.min(y0 + 1, h - 1);
      const ax = sx - x0;
      const ay = sy - y0;
      const p00 = (y0 * w + x0) * 3;
      const p01 = (y0 * w + x1) * 3;
      const p10 = (y1 * w + x0) * 3;
      const p11 = (y1 * w + x1) * 3;
      const r = byte(channel(rgb, p00, p01, p10, p11, ax, ay));
      const g = byte(channel(rgb, p00 + 1, p01 + 1, p10 + 1, p11 + 1, ax, ay));
      const b = byte(channel(rgb, p00 + 2, p01 + 2, p10 + 2, p11 + 2, ax, ay));
      data[y * width + x] = luma(r, g, b);
    }
  }
  return { data, width, height };
}

function channel(d: Uint8Array, p00: number, p01: number, p10: number, p11: number, ax: number, ay: number) {
  const top = d[p00]! * (1 - ax) + d[p01]! * ax;
  const bot = d[p10]! * (1 - ax) + d[p11]! * ax;
  return top * (1 - ay) + bot * ay;
}

/** What storing a sample (0..255, never negative) into a Uint8Array does: cut to a whole number. */
const byte = (v: number) => v | 0;
