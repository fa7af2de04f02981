import { describe, expect, it } from 'vitest';
import { glareSpot, nearGlare } from '../../src/tamper/capture.ts';
import { detectTamper } from '../../src/tamper/index.ts';
import { box, SIZE, typed } from './typed-line.ts';

/**
 * A glyph-height break in a value in or near a reported glare blob is a review, never a fail:
 * glare fades the print in its halo, and a faded glyph reads shorter than its neighbours.
 */

const FORGED = [
  { text: '23 ' },
  { text: 'O', size: SIZE * 1.6, family: 'DejaVu Serif', weight: 'normal' },
  { text: 'CT 1989' },
];

/** The typed value, with a clipped white spot of `size` px at (x, y) when given. */
async function page(spot?: { x: number; y: number; size: number }) {
  const image = await typed(FORGED);
  if (spot)
    for (let y = spot.y; y < spot.y + spot.size; y++)
      for (let x = spot.x; x < spot.x + spot.size; x++)
        image.rgb.fill(255, (y * image.width + x) * 3, (y * image.width + x + 1) * 3);
  return image;
}

async function signs(image: Awaited<ReturnType<typeof typed>>) {
  const field = { field: 'date_of_birth', side: 'front', ...box };
  const { signals } = await detectTamper(
    { front: image },
    { layout: 'td3', portrait: null, textBoxes: [field], lineBoxes: [] },
  );
  return signals;
}

describe('font_inconsistency near glare', () => {
  it('fails the broken value without glare, holds it at review beside a glare blob', async () => {
    const clean = await signs(await page());
    expect(clean.filter((s) => s.type === 'font_inconsistency')).toMatchObject([{ severity: 'high' }]);
    // A 30 px spot touching the value's box from above: 1.25 % of the page, a low glare sign.
    const glared = await signs(await page({ x: 450, y: 4, size: 30 }));
    expect(glared.find((s) => s.type === 'glare')?.severity).toBe('low');
    const font = glared.filter((s) => s.type === 'font_inconsistency');
    expect(font).toHaveLength(1);
    expect(font[0]!.severity).not.toBe('high');
  });

  it('locates the blob it reports', async () => {
    const spot = glareSpot(await page({ x: 450, y: 4, size: 30 }));
    expect(spot.fraction).toBeCloseTo(900 / (600 * 120), 4);
    expect(spot.box).toEqual({ x: 450, y: 4, w: 30, h: 30 });
  });

  it('counts a box within the blob’s halo (half its size around it) as near, one past it as not', () => {
    const glare = { x: 100, y: 100, w: 40, h: 20 };
    expect(nearGlare({ x: 150, y: 100, w: 50, h: 10 }, glare)).toBe(true); // 10 px right of it
    expect(nearGlare({ x: 161, y: 100, w: 50, h: 10 }, glare)).toBe(false); // 21 px right
    expect(nearGlare({ x: 100, y: 125, w: 50, h: 10 }, glare)).toBe(true); // 5 px below
    expect(nearGlare({ x: 100, y: 131, w: 50, h: 10 }, glare)).toBe(false); // 11 px below
  });
});
