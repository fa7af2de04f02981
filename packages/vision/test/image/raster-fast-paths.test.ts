import { describe, expect, it } from 'vitest';
import { type RgbImage, resizeRgb, sampleRgb } from '../../src/image/raster.ts';
import { colourDocument } from '../tamper/synthetic.ts';

/** The bilinear resize as it was written first: one sampleRgb per output pixel. */
function plainBilinearResize(img: RgbImage, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height * 3);
  const sx = img.width / width;
  const sy = img.height / height;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const fx = Math.max(0, (x + 0.5) * sx - 0.5);
      const fy = Math.max(0, (y + 0.5) * sy - 0.5);
      sampleRgb(img, fx, fy, out, (y * width + x) * 3);
    }
  return out;
}

/** The box average as it was written first: every output pixel sums its box pixel by pixel. */
function plainBoxResize(img: RgbImage, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height * 3);
  const sx = img.width / width;
  const sy = img.height / height;
  const box = Math.max(1, Math.floor(Math.min(sx, sy)));
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor(x * sx);
      const y0 = Math.floor(y * sy);
      const sums = [0, 0, 0];
      let n = 0;
      for (let yy = y0; yy < Math.min(img.height, y0 + box); yy++)
        for (let xx = x0; xx < Math.min(img.width, x0 + box); xx++) {
          for (let c = 0; c < 3; c++) sums[c]! += img.rgb[(yy * img.width + xx) * 3 + c]!;
          n++;
        }
      for (let c = 0; c < 3; c++) out[(y * width + x) * 3 + c] = sums[c]! / n;
    }
  return out;
}

/**
 * Every threshold measured on resized pixels (the blur gate, text detection) was set on the
 * plain per-pixel resize: the table-driven one must give the same bytes.
 */
describe('resizeRgb', () => {
  const doc = colourDocument(913, 577, 4);

  it('gives the bytes of one bilinear sample per pixel, shrinking and enlarging', () => {
    // Shrinking by less than 2 (the blur gate's and the detector's usual case), odd ratios,
    // a thin strip, and enlarging (clamped at the right and bottom edges).
    for (const [w, h] of [
      [640, 405],
      [800, 506],
      [501, 333],
      [913, 577],
      [31, 577],
      [1200, 760],
    ] as const) {
      const fast = resizeRgb(doc, w, h);
      expect([fast.width, fast.height]).toEqual([w, h]);
      expect(Buffer.from(fast.rgb).equals(Buffer.from(plainBilinearResize(doc, w, h)))).toBe(true);
    }
  });

  it('averages the same boxes as the plain per-pixel loops when shrinking by 2 or more', () => {
    // 2×2 boxes (the text detector's usual case), 3×3 and 4×4, uneven ratios.
    for (const [w, h] of [
      [456, 288],
      [300, 190],
      [227, 144],
      [451, 201],
    ] as const) {
      const fast = resizeRgb(doc, w, h);
      expect(Buffer.from(fast.rgb).equals(Buffer.from(plainBoxResize(doc, w, h)))).toBe(true);
    }
  });
});
