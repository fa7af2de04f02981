import { describe, expect, it } from 'vitest';
import { rgbImage } from '../../src/image/raster.ts';
import { fieldFontDeviation, GLYPH_HEIGHT_TOLERANCE } from '../../src/tamper/font-consistency.ts';
import { rng } from './synthetic.ts';

/**
 * A date printed "15 JUN 2031" in a face whose J reaches below the baseline (DejaVu, many
 * passport faces) is one font: the J's top is on the capitals' line. A glyph set larger by a
 * forger stands on the baseline and rises above that line. Blocks of ink stand for glyphs.
 */

type Rect = { x: number; y: number; w: number; h: number };

const CAPITAL = 22;
const TOP = 80;

/** Light paper with mild noise and dark glyph blocks, 480 × 200 px. */
function page(rects: Rect[]) {
  const width = 480;
  const height = 200;
  const rand = rng(9);
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const ink = rects.some((r) => x >= r.x && x < r.x + r.w && y >= r.y && y < r.y + r.h);
      const v = ink ? 25 + rand() * 10 : 225 + (rand() - 0.5) * 6;
      rgb.set([v, v - 2, v + 3], (y * width + x) * 3);
    }
  }
  return rgbImage(rgb, width, height);
}

/** Ten capitals, the fourth replaced by `odd` (its top and height). */
function field(odd: { top: number; h: number }): Rect[] {
  return Array.from({ length: 10 }, (_, k) => {
    const x = 100 + k * Math.round(CAPITAL * 0.8);
    const w = Math.round(CAPITAL * 0.55);
    return k === 3 ? { x, y: odd.top, w, h: odd.h } : { x, y: TOP, w, h: CAPITAL };
  });
}

const box = { x: 92, y: 66, w: 184, h: 52 };

describe('font_inconsistency and capitals that reach below the baseline', () => {
  it('measures a descender from its top to the baseline', () => {
    // A J 27 % taller than the capitals, all of it below the baseline.
    const j = page(field({ top: TOP, h: Math.round(CAPITAL * 1.27) }));
    expect(fieldFontDeviation(j, box).height!).toBeLessThan(0.05);
  });

  it('still measures whole a glyph as much taller that stands on the baseline', () => {
    const h = Math.round(CAPITAL * 1.27);
    const larger = page(field({ top: TOP + CAPITAL - h, h }));
    expect(fieldFontDeviation(larger, box).height!).toBeGreaterThan(GLYPH_HEIGHT_TOLERANCE);
  });

  it('still measures a glyph taller at both ends', () => {
    const both = page(field({ top: TOP - 4, h: CAPITAL + 10 }));
    expect(fieldFontDeviation(both, box).height!).toBeGreaterThan(GLYPH_HEIGHT_TOLERANCE);
  });
});
