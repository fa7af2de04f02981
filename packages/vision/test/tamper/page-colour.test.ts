import { describe, expect, it } from 'vitest';
import { drawColourCard } from '../../scripts/eval/corpus/colour-card.ts';
import { greyCopy } from '../../scripts/eval/corpus/photocopy.ts';
import { drawSvg } from '../../scripts/eval/corpus/raster-io.ts';
import { seededRng } from '../../scripts/eval/corpus/rng.ts';
import { PAGE_COLOUR_PEAK, pageColourPeak } from '../../src/tamper/page-colour.ts';
import { PHOTOCOPY_FAIL_SPREAD } from '../../src/tamper/photocopy.ts';
import { paleTints, photocopyOnCapture, withCopyCues } from './copy-sign.ts';

const SLOW = { timeout: 240_000 };

/** A flat page with lines of grey print, and a coloured stripe along its left edge if asked. */
function printedPage(stripe: boolean) {
  const [width, height] = [400, 300];
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const print = y % 30 < 8 && x > 40 && x < 360;
      const c = stripe && x < 8 ? [200, 40, 40] : print ? [70, 70, 70] : [236, 232, 226];
      rgb.set(c, (y * width + x) * 3);
    }
  }
  return { rgb, width, height, originalWidth: width, originalHeight: height } as never;
}

describe('the page colour peak', () => {
  it('sees a stripe along the page edge, and no colour on a grey-printed page', () => {
    const page = { x: 0, y: 0, w: 400, h: 300 };
    expect(pageColourPeak(printedPage(true), page)).toBeGreaterThan(PAGE_COLOUR_PEAK);
    expect(pageColourPeak(printedPage(false), page)).toBeLessThan(0.01);
    // An extent reaching past the photo is cut to it.
    expect(pageColourPeak(printedPage(true), { x: -20, y: -20, w: 500, h: 400 })).toBeGreaterThan(
      PAGE_COLOUR_PEAK,
    );
  });
});

/**
 * The default tamper step on a colour card drawn here, printed in pale tints grey enough to fail
 * on its spread, with its colour only in a stripe along the page's edge, outside the spread's
 * window (the centre of the photo, the document filling more of it).
 * The genuine print is held at review; a grey copy of it still fails.
 */
describe('a pale print with a coloured stripe outside the photocopy window', () => {
  withCopyCues();

  for (const seed of [71, 81]) {
    it(`card ${seed}: the striped pale print is a review, its grey copy a fail`, SLOW, async () => {
      const card = await drawColourCard(seededRng(seed), `striped-card-${seed}`);
      const pale = paleTints(card.image, 0.05);
      const { width: w, height: h } = pale;
      const striped = await drawSvg(
        pale,
        `<rect x="0" y="0" width="${0.02 * w}" height="${h / 2}" fill="#d23c2c"/><rect x="0" y="${h / 2}" width="${0.02 * w}" height="${h / 2}" fill="#2c9a48"/>`,
      );
      const genuine = await photocopyOnCapture(striped, 90);
      // Grey enough to fail on the spread alone: the case the page's colour is for.
      expect(genuine.measures['front.spread']!).toBeLessThanOrEqual(PHOTOCOPY_FAIL_SPREAD);
      expect(genuine.measures['front.page_peak']!).toBeGreaterThan(PAGE_COLOUR_PEAK);
      expect(genuine.sign).toBeDefined();
      expect(genuine.sign?.severity).not.toBe('high');
      const copy = await photocopyOnCapture(await greyCopy(striped, seededRng(seed + 93)), 94);
      expect(copy.measures['front.page_peak']!).toBeLessThanOrEqual(PAGE_COLOUR_PEAK);
      expect(copy.sign?.severity).toBe('high');
    });
  }
});
