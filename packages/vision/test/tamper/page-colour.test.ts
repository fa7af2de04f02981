import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawColourCard } from '../../scripts/eval/corpus/colour-card.ts';
import { phoneCaptureMapped } from '../../scripts/eval/corpus/phone-capture.ts';
import { greyCopy } from '../../scripts/eval/corpus/photocopy.ts';
import { drawSvg } from '../../scripts/eval/corpus/raster-io.ts';
import { seededRng } from '../../scripts/eval/corpus/rng.ts';
import { normalizeImage } from '../../src/image/normalize.ts';
import type { RgbImage } from '../../src/image/raster.ts';
import { detectTamper } from '../../src/tamper/index.ts';
import { PAGE_COLOUR_PEAK, pageColourPeak, pageWindow } from '../../src/tamper/page-colour.ts';
import { PHOTOCOPY_FAIL_SPREAD } from '../../src/tamper/photocopy.ts';
import { paleTints } from './copy-sign.ts';

const SLOW = { timeout: 240_000 };

/** A flat page (with a coloured stripe along its left edge) on a flat grey table. */
function pageOnTable(stripe: boolean) {
  const [width, height] = [400, 300];
  const page = { x: 60, y: 50, w: 280, h: 200 };
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const onPage = x >= page.x && x < page.x + page.w && y >= page.y && y < page.y + page.h;
      const onStripe = stripe && onPage && x < page.x + 6;
      const c = onStripe ? [200, 40, 40] : onPage ? [236, 232, 226] : [120, 124, 122];
      rgb.set(c, (y * width + x) * 3);
    }
  }
  return { image: { rgb, width, height, originalWidth: width, originalHeight: height }, page };
}

describe('the page window', () => {
  it('grows the read text out to the page edges, past a coloured stripe, not onto the table', () => {
    const { image, page } = pageOnTable(true);
    const text = { x: 100, y: 80, w: 200, h: 140 };
    const window = pageWindow(image as never, text);
    // Within one growth step (1 % of the side) of the page's edges, never beyond them.
    expect(window.x).toBeLessThanOrEqual(page.x + 4);
    expect(window.x).toBeGreaterThanOrEqual(page.x);
    expect(window.x + window.w).toBeGreaterThanOrEqual(page.x + page.w - 4);
    expect(window.x + window.w).toBeLessThanOrEqual(page.x + page.w);
    expect(window.y).toBeGreaterThanOrEqual(page.y);
    expect(window.y + window.h).toBeLessThanOrEqual(page.y + page.h);
    // The stripe is inside and raises the peak; without it the page has no colour.
    expect(pageColourPeak(image as never, window)).toBeGreaterThan(PAGE_COLOUR_PEAK);
    const plain = pageOnTable(false);
    expect(pageColourPeak(plain.image as never, pageWindow(plain.image as never, text))).toBeLessThan(0.01);
  });
});

/**
 * The default tamper step on a colour card drawn here, printed in pale tints grey enough to fail
 * on its spread, with its colour only in a stripe along the page's edge, beyond the read text.
 * The genuine print is held at review; a grey copy of it still fails.
 */
describe('a pale print with a coloured stripe outside the read text', () => {
  const names = ['IDV_TAMPER_COPY_AGREE', 'IDV_TAMPER_LEARNED', 'IDV_TAMPER_SPECKLE'] as const;
  const saved = names.map((name) => process.env[name]);
  beforeAll(() => {
    for (const name of names) delete process.env[name];
  });
  afterAll(() => {
    names.forEach((name, i) => {
      if (saved[i] !== undefined) process.env[name] = saved[i];
    });
  });

  /** The photocopy sign on a phone capture, with the read text's extent 10 % inside the page. */
  async function copySign(img: RgbImage, seed: number) {
    const { bytes, map } = await phoneCaptureMapped(img, seededRng(seed));
    const image = await normalizeImage(bytes);
    const k = image.width / image.originalWidth;
    const [x0, y0] = map(0.1 * img.width, 0.1 * img.height);
    const [x1, y1] = map(0.9 * img.width, 0.9 * img.height);
    const text = { x: x0 * k, y: y0 * k, w: (x1 - x0) * k, h: (y1 - y0) * k };
    const measures: Record<string, number> = {};
    const { signals } = await detectTamper(
      { front: image },
      { layout: 'unknown', portrait: null, documentRegions: { front: text }, nativeScreenRatios: {} },
      { measures },
    );
    return { sign: signals.find((s) => s.type === 'photocopy'), measures };
  }

  for (const seed of [71, 81]) {
    it(`card ${seed}: the striped pale print is a review, its grey copy a fail`, SLOW, async () => {
      const card = await drawColourCard(seededRng(seed), `striped-card-${seed}`);
      const pale = paleTints(card.image, 0.05);
      const { width: w, height: h } = pale;
      const striped = await drawSvg(
        pale,
        `<rect x="0" y="0" width="${0.02 * w}" height="${h / 2}" fill="#d23c2c"/><rect x="0" y="${h / 2}" width="${0.02 * w}" height="${h / 2}" fill="#2c9a48"/>`,
      );
      const genuine = await copySign(striped, 90);
      // Grey enough to fail on the spread alone: the case the page's colour is for.
      expect(genuine.measures['front.spread']!).toBeLessThanOrEqual(PHOTOCOPY_FAIL_SPREAD);
      expect(genuine.measures['front.page_peak']!).toBeGreaterThan(PAGE_COLOUR_PEAK);
      expect(genuine.sign).toBeDefined();
      expect(genuine.sign?.severity).not.toBe('high');
      const copy = await copySign(await greyCopy(striped, seededRng(seed + 93)), 94);
      expect(copy.measures['front.page_peak']!).toBeLessThanOrEqual(PAGE_COLOUR_PEAK);
      expect(copy.sign?.severity).toBe('high');
    });
  }
});
