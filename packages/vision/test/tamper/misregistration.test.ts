import { describe, expect, it } from 'vitest';
import type { NormalizedImage } from '../../src/image/normalize.ts';
import { measureMisregistration } from '../../src/tamper/misregistration.ts';

/**
 * Dark text-like bars on paper, with the red plane drawn `shift` pixels to the right of the
 * others (a copier's registration error) and a soft edge so that sub-pixel shifts show.
 */
function bars(shift: number): NormalizedImage {
  const width = 500;
  const height = 400;
  const rgb = new Uint8Array(width * height * 3);
  // Ink of a soft-edged bar pattern at position x, y (vertical and horizontal strokes).
  const ink = (x: number, y: number) => {
    const u = (x % 23) - 11.5;
    const v = (y % 31) - 15.5;
    const stroke = (d: number) => 1 / (1 + Math.exp((Math.abs(d) - 3) * 1.5));
    return Math.max(stroke(u), stroke(v));
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      rgb[i] = Math.round(235 - 200 * ink(x - shift, y));
      rgb[i + 1] = Math.round(235 - 200 * ink(x, y));
      rgb[i + 2] = Math.round(230 - 195 * ink(x, y));
    }
  }
  return { rgb, width, height, originalWidth: width, originalHeight: height } as NormalizedImage;
}

const whole = { x: 0, y: 0, w: 500, h: 400 };

describe('colour misregistration', () => {
  it('measures a red plane laid half a pixel to the right, and not the blue one', () => {
    const m = measureMisregistration(bars(0.5), whole)!;
    expect(m.red[0]).toBeGreaterThan(0.35);
    expect(m.red[0]).toBeLessThan(0.65);
    expect(Math.abs(m.red[1])).toBeLessThan(0.05);
    expect(Math.hypot(...m.blue)).toBeLessThan(0.05);
    expect(m.shift).toBeCloseTo(Math.hypot(...m.red), 6);
  });

  it('measures nothing on registered planes', () => {
    const m = measureMisregistration(bars(0), whole)!;
    expect(m.shift).toBeLessThan(0.03);
  });
});
