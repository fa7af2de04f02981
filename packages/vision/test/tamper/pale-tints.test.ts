import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawColourCard } from '../../scripts/eval/corpus/colour-card.ts';
import { phoneCaptureMapped } from '../../scripts/eval/corpus/phone-capture.ts';
import { greyCopy } from '../../scripts/eval/corpus/photocopy.ts';
import { seededRng } from '../../scripts/eval/corpus/rng.ts';
import { normalizeImage } from '../../src/image/normalize.ts';
import type { RgbImage } from '../../src/image/raster.ts';
import { detectTamper } from '../../src/tamper/index.ts';
import {
  PHOTOCOPY_FAIL_SPREAD,
  PHOTOCOPY_MAX_SPREAD,
  photocopyStrength,
} from '../../src/tamper/photocopy.ts';

const SLOW = { timeout: 240_000 };

describe('the photocopy strength ladder', () => {
  it('fails only at or below the fail bar, a review between it and the flag bar', () => {
    // Past the flag bar: no sign.
    expect(photocopyStrength(PHOTOCOPY_MAX_SPREAD + 0.001)).toBeNull();
    // Between the bars: a sign, held under high severity however grey.
    const between = photocopyStrength(PHOTOCOPY_FAIL_SPREAD + 0.0005);
    expect(between).not.toBeNull();
    expect(between!).toBeLessThan(0.5);
    expect(photocopyStrength(0.012)!).toBeLessThan(0.5);
    // At and under the fail bar: high, as before.
    expect(photocopyStrength(PHOTOCOPY_FAIL_SPREAD)!).toBeGreaterThanOrEqual(0.5);
    expect(photocopyStrength(0.004)).toBe(1);
    expect(photocopyStrength(Number.NaN)).toBeNull();
  });
});

/**
 * The default tamper step (no opt-in cue) on colour cards drawn here, independently, each
 * printed in pale tints (as grey as many copies to the colour spread), and on a grey copy of the
 * same pale card: the genuine print must not fail, the copy must.
 */
describe('genuine documents printed in pale tints, and grey copies of them', () => {
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

  /** The photocopy sign on a phone capture of `img`, with the document's extent known. */
  async function copySign(img: RgbImage, seed: number) {
    const { bytes, map } = await phoneCaptureMapped(img, seededRng(seed));
    const image = await normalizeImage(bytes);
    const k = image.width / image.originalWidth;
    const [x0, y0] = map(0, 0);
    const [x1, y1] = map(img.width, img.height);
    const window = { x: x0 * k, y: y0 * k, w: (x1 - x0) * k, h: (y1 - y0) * k };
    const measures: Record<string, number> = {};
    const { signals } = await detectTamper(
      { front: image },
      { layout: 'unknown', portrait: null, documentRegions: { front: window }, nativeScreenRatios: {} },
      { measures },
    );
    return { sign: signals.find((s) => s.type === 'photocopy'), spread: measures['front.spread']! };
  }

  for (const seed of [71, 81]) {
    it(`card ${seed}: the pale print is a review at most, its grey copy a fail`, SLOW, async () => {
      const card = await drawColourCard(seededRng(seed), `pale-card-${seed}`);
      const pale = paleTints(card.image, 0.25);
      const genuine = await copySign(pale, 90);
      // Grey enough to raise the sign: the case the fail bar is for.
      expect(genuine.spread).toBeLessThanOrEqual(PHOTOCOPY_MAX_SPREAD);
      expect(genuine.spread).toBeGreaterThan(PHOTOCOPY_FAIL_SPREAD);
      expect(genuine.sign?.severity).not.toBe('high');
      const copy = await copySign(await greyCopy(pale, seededRng(seed + 93)), 94);
      expect(copy.spread).toBeLessThanOrEqual(PHOTOCOPY_FAIL_SPREAD);
      expect(copy.sign?.severity).toBe('high');
    });
  }
});

/** A genuine document printed in pale tints: the card with most of its saturation taken out. */
function paleTints(img: RgbImage, keep: number): RgbImage {
  const rgb = new Uint8Array(img.rgb.length);
  for (let p = 0; p < img.rgb.length; p += 3) {
    const l = 0.299 * img.rgb[p]! + 0.587 * img.rgb[p + 1]! + 0.114 * img.rgb[p + 2]!;
    for (let c = 0; c < 3; c++) rgb[p + c] = Math.round(l + keep * (img.rgb[p + c]! - l));
  }
  return { rgb, width: img.width, height: img.height };
}
