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

  it('averages boxes when shrinking by 2 or more', () => {
    const small = resizeRgb(doc, 300, 190);
    const sx = doc.width / 300;
    const sy = doc.height / 190;
    // Output pixel (7, 5): the mean of the 3×3 input pixels from (floor(7·sx), floor(5·sy)).
    const x0 = Math.floor(7 * sx);
    const y0 = Math.floor(5 * sy);
    let r = 0;
    for (let y = y0; y < y0 + 3; y++)
      for (let x = x0; x < x0 + 3; x++) r += doc.rgb[(y * doc.width + x) * 3]!;
    expect(small.rgb[(5 * 300 + 7) * 3]).toBe(Math.floor(r / 9));
  });
});
