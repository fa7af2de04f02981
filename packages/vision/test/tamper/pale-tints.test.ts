import { describe, expect, it } from 'vitest';
import { drawColourCard } from '../../scripts/eval/corpus/colour-card.ts';
import { greyCopy } from '../../scripts/eval/corpus/photocopy.ts';
import { seededRng } from '../../scripts/eval/corpus/rng.ts';
import type { RgbImage } from '../../src/image/raster.ts';
import {
  PHOTOCOPY_FAIL_SPREAD,
  PHOTOCOPY_MAX_SPREAD,
  photocopyStrength,
} from '../../src/tamper/photocopy.ts';
import { paleTints, photocopyOnCapture, withCopyCues } from './copy-sign.ts';

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
  withCopyCues();

  async function copySign(img: RgbImage, seed: number) {
    const { sign, measures } = await photocopyOnCapture(img, seed);
    return { sign, spread: measures['front.spread']! };
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
