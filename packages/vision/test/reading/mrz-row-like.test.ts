import { describe, expect, it } from 'vitest';
import type { RotatedRect } from '../../src/ocr/geometry.ts';
import { mrzRowLike } from '../../src/ocr/page.ts';

/** A line of `long` × `short` px centred at (cx, cy) along the page direction `angle`. */
const line = (cx: number, cy: number, long: number, short: number, angle = 0): RotatedRect => ({
  cx,
  cy,
  long,
  short,
  angle,
});

/** The same layout turned by `angle` about the origin (a photo taken at an angle). */
const turned = (rects: RotatedRect[], angle: number): RotatedRect[] =>
  rects.map((r) => ({
    ...r,
    cx: r.cx * Math.cos(angle) - r.cy * Math.sin(angle),
    cy: r.cx * Math.sin(angle) + r.cy * Math.cos(angle),
    angle: r.angle + angle,
  }));

describe('MRZ-like rows (read stretched)', () => {
  // Two rows of 44 characters, 20 px tall, 34 px apart, above them a title and a field.
  const page = [
    line(400, 100, 300, 24), // title
    line(300, 160, 120, 16), // field value
    line(420, 500, 700, 20), // MRZ row 1
    line(422, 534, 698, 21), // MRZ row 2
  ];

  it('takes the stacked long rows of an MRZ and nothing else', () => {
    expect(page.map((_, i) => mrzRowLike(page, i, 0))).toEqual([false, false, true, true]);
  });

  it('holds on a page photographed at an angle or upside down', () => {
    for (const a of [0.3, -0.5, Math.PI / 2, Math.PI]) {
      const rects = turned(page, a);
      expect(rects.map((_, i) => mrzRowLike(rects, i, a))).toEqual([false, false, true, true]);
    }
  });

  it('takes the three rows of a card MRZ, a row whose fillers were cut short among them', () => {
    const rects = [line(300, 400, 480, 18), line(260, 430, 400, 18), line(300, 460, 480, 18)];
    expect(rects.map((_, i) => mrzRowLike(rects, i, 0))).toEqual([true, true, true]);
  });

  it('leaves a long line alone: alone, beside a short one, far from another, or of another size', () => {
    const lone = [line(400, 300, 600, 20), line(300, 330, 100, 20)];
    expect(mrzRowLike(lone, 0, 0)).toBe(false);
    const far = [line(400, 100, 600, 20), line(400, 400, 600, 20)];
    expect(mrzRowLike(far, 0, 0)).toBe(false);
    const sizes = [line(400, 100, 600, 20), line(400, 140, 800, 40)];
    expect(mrzRowLike(sizes, 0, 0)).toBe(false);
    // Two long lines side by side on one row (two columns), not stacked.
    const columns = [line(200, 100, 300, 20), line(560, 100, 300, 20)];
    expect(mrzRowLike(columns, 0, 0)).toBe(false);
    // Stacked but in different columns (no overlap along the page).
    const apart = [line(200, 100, 300, 20), line(700, 130, 300, 20)];
    expect(mrzRowLike(apart, 0, 0)).toBe(false);
  });
});
