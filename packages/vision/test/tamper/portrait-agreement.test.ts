import { afterEach, describe, expect, it } from 'vitest';
import { drawColourCard } from '../../scripts/eval/corpus/colour-card.ts';
import { addMarks } from '../../scripts/eval/corpus/hazards.ts';
import { swapPortrait } from '../../scripts/eval/corpus/portrait.ts';
import { seededRng, seedOf } from '../../scripts/eval/corpus/rng.ts';
import { synthSource } from '../../scripts/eval/corpus/synth-sources.ts';
import { REVIEW_MAX_STRENGTH } from '../../src/tamper/descriptions.ts';
import {
  SWAP_WITH_SEAM,
  swapSignStrength,
  swapWithSeamStrength,
} from '../../src/tamper/portrait-agreement.ts';
import { PORTRAIT_SWAP } from '../../src/tamper/portrait-model.ts';
import { SEAM_MIN_COVERAGE, type SeamMeasure } from '../../src/tamper/portrait-seam.ts';
import { tamperOn } from './page-capture.ts';

/**
 * `portrait_edge` from the swap classifier and the seam (tamper/portrait-agreement.ts): the two
 * agreeing below their own bars raise a review; the classifier's own sign fails the check only
 * with the seam.
 */

const seamOf = (weakest: number): SeamMeasure => ({ sides: [weakest, 1, 1, 1], weakest });

describe('the swap classifier and the seam agreeing', () => {
  it.each([
    // [p(swap), seam's weakest side, sign?]
    [0.59, 0.95, false], // the classifier under its agreement bar
    [0.75, 0.69, false], // the seam under its agreement bar
    [0.6, 0.7, true], // both at their bars: the weakest sign
    [0.7, 0.85, true],
    [0.95, 1, true], // the classifier's own sign takes over there (index.ts keeps the stronger)
  ])('p(swap) %f with a seam of %f: a sign %s', (swap, seam, sign) => {
    const strength = swapWithSeamStrength(swap, seamOf(seam));
    if (!sign) expect(strength).toBe(0);
    else {
      expect(strength).toBeGreaterThan(0);
      // A review at most: never a fail on its own.
      expect(strength).toBeLessThanOrEqual(REVIEW_MAX_STRENGTH);
    }
  });

  it('grows with the weaker of the two, up to a review', () => {
    const low = swapWithSeamStrength(0.62, seamOf(0.95));
    const higher = swapWithSeamStrength(0.72, seamOf(0.95));
    expect(higher).toBeGreaterThan(low);
    // The seam now the weaker: the same strength whatever the classifier says above it.
    expect(swapWithSeamStrength(0.79, seamOf(0.75))).toBe(swapWithSeamStrength(0.72, seamOf(0.75)));
    expect(swapWithSeamStrength(PORTRAIT_SWAP.sign, seamOf(1))).toBe(REVIEW_MAX_STRENGTH);
  });

  it('needs both measures', () => {
    expect(swapWithSeamStrength(null, seamOf(1))).toBe(0);
    expect(swapWithSeamStrength(0.75, null)).toBe(0);
  });
});

describe("the classifier's own sign", () => {
  it.each([
    // [p(swap), seam's weakest side (null: face too small), severity]
    [0.97, 0.8, 'high'], // a swap: both
    [0.97, SEAM_MIN_COVERAGE, 'high'],
    [0.97, 0.44, 'review'], // the classifier alone: held at review
    [0.97, null, 'review'], // no seam measured: the same
    [0.85, 0.2, 'review'], // under the high bar anyway
    [0.5, 0.9, 'none'],
  ])('p(swap) %f with a seam of %s: %s', (swap, seam, expected) => {
    const strength = swapSignStrength(swap, seam === null ? null : seamOf(seam));
    if (expected === 'none') expect(strength).toBe(0);
    else if (expected === 'review') {
      expect(strength).toBeGreaterThan(0);
      expect(strength).toBeLessThanOrEqual(REVIEW_MAX_STRENGTH);
    } else expect(strength).toBeGreaterThan(REVIEW_MAX_STRENGTH);
  });

  it('is nothing without the classifier', () => {
    expect(swapSignStrength(null, seamOf(1))).toBe(0);
  });

  it("holds a crease across a genuine drawn card's portrait at review (the classifier alone)", {
    timeout: 240_000,
  }, async () => {
    // A genuine colour card of the tuning draw `s20-tune`, its page marked (a crease runs across
    // the portrait) and photographed as the hazards evaluation does: the classifier reads the
    // crease as a swap (p ≥ 0.95) and failed the card; no seam surrounds the face.
    const name = 'colour-card-s20-tune-10';
    const card = await drawColourCard(seededRng(seedOf(name)), name);
    const rng = seededRng(seedOf(`${name}:hazard:marks`));
    const marked = await addMarks(card, rng);
    const measures: Record<string, number> = {};
    const signals = await tamperOn(card, marked, rng, measures);
    expect(measures['front.portrait_swap']).toBeGreaterThanOrEqual(PORTRAIT_SWAP.high);
    expect(measures['front.seam']).toBeLessThan(SEAM_MIN_COVERAGE);
    expect(signals.find((s) => s.type === 'portrait_edge')?.severity).toBe('medium');
  });
});

/**
 * On the attack corpus's own page (tag `test`, page 5: a TD2 card whose genuine photo is
 * composited with a hard frame, so the seam alone misreads it), captured by the corpus's phone
 * simulation: its portrait swapped for another person's, blended in (colours matched, border
 * feathered). The classifier alone misses that swap (p 0.69 in this capture, under 0.80) and the
 * seam alone misreads the genuine page (0.97); together they raise the sign on the swap only.
 */
describe('a blended swap on a page printed with a hard frame', () => {
  afterEach(() => {
    delete process.env.IDV_TAMPER_PORTRAIT_CNN;
  });

  it('is a portrait_edge review; the genuine page, seamed as much, is left alone', {
    timeout: 240_000,
  }, async () => {
    const page = await synthSource('tuning', 5, 'test');
    const donor = await synthSource('tuning', 6, 'test');
    expect(donor.portraitId).not.toBe(page.portraitId);

    const genuineMeasures: Record<string, number> = {};
    const genuine = await tamperOn(page, page.image, seededRng(seedOf(`${page.name}:bona`)), genuineMeasures);
    expect(genuine.map((s) => s.type)).not.toContain('portrait_edge');
    expect(genuineMeasures['front.seam']).toBeGreaterThanOrEqual(SWAP_WITH_SEAM.seam);
    expect(genuineMeasures['front.portrait_swap']).toBeLessThan(SWAP_WITH_SEAM.swap);

    const swapped = await swapPortrait(
      page.image,
      page.boxes.portrait!,
      donor.image,
      donor.boxes.portrait!,
      'blended',
      seededRng(seedOf(`${page.name}:blended`)),
      { targetPhoto: page.boxes.photo!, donorPhoto: donor.boxes.photo! },
    );
    const captureSeed = `${page.name}:blended-capture`;
    const measures: Record<string, number> = {};
    const signals = await tamperOn(page, swapped, seededRng(seedOf(captureSeed)), measures);
    // Each cue under its own bar...
    expect(measures['front.portrait_swap']).toBeGreaterThanOrEqual(SWAP_WITH_SEAM.swap);
    expect(measures['front.portrait_swap']).toBeLessThan(PORTRAIT_SWAP.sign);
    expect(measures['front.seam']).toBeGreaterThanOrEqual(SWAP_WITH_SEAM.seam);
    // ... and the sign from the two together, a review.
    expect(signals.find((s) => s.type === 'portrait_edge')?.severity).toBe('medium');

    // Without the classifier the seam alone (opt-in) raises nothing on the same capture.
    process.env.IDV_TAMPER_PORTRAIT_CNN = '0';
    const seamOnly = await tamperOn(page, swapped, seededRng(seedOf(captureSeed)));
    expect(seamOnly.map((s) => s.type)).not.toContain('portrait_edge');
  });
});
