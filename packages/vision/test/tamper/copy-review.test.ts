import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { drawColourCard } from '../../scripts/eval/corpus/colour-card.ts';
import { colourCopy, roomLight } from '../../scripts/eval/corpus/photocopy.ts';
import { seededRng } from '../../scripts/eval/corpus/rng.ts';
import type { GenuineSource } from '../../scripts/eval/corpus/types.ts';
import {
  LEARNED_COPY_REVIEW,
  learnedCopyReviewStrength,
  learnedCues,
} from '../../src/tamper/capture-model.ts';
import { REVIEW_MAX_STRENGTH } from '../../src/tamper/descriptions.ts';
import { photocopyOnCapture, withCopyCues } from './copy-sign.ts';

const SLOW = { timeout: 240_000 };

/**
 * The capture classifier's copy part alone, at review (opt-in, IDV_TAMPER_LEARNED=review;
 * capture-model.ts LEARNED_COPY_REVIEW): from p(copy) 0.85 it raises `photocopy` at medium
 * severity, never high.
 */
describe('the copy part at review: strength and switches', () => {
  const saved = process.env.IDV_TAMPER_LEARNED;
  afterEach(() => {
    if (saved === undefined) delete process.env.IDV_TAMPER_LEARNED;
    else process.env.IDV_TAMPER_LEARNED = saved;
  });

  it.each([
    [0.5, null],
    [0.849, null],
    [0.85, 0.01],
    [0.925, 0.25],
    [1, REVIEW_MAX_STRENGTH],
  ])('p(copy) %f gives strength %s, medium at most', (p, strength) => {
    const s = learnedCopyReviewStrength(p);
    if (strength === null) expect(s).toBeNull();
    else expect(s).toBeCloseTo(strength, 6);
  });

  it.each([
    [undefined, { screen: true, copy: false, copyReview: false }],
    ['review', { screen: true, copy: false, copyReview: true }],
    ['screen', { screen: true, copy: false, copyReview: false }],
    ['1', { screen: true, copy: true, copyReview: false }],
    ['0', { screen: false, copy: false, copyReview: false }],
  ])('IDV_TAMPER_LEARNED=%s', (mode, parts) => {
    if (mode === undefined) delete process.env.IDV_TAMPER_LEARNED;
    else process.env.IDV_TAMPER_LEARNED = mode;
    expect(learnedCues()).toEqual(parts);
  });
});

describe('the copy part at review on generated captures (the trained weights)', () => {
  withCopyCues({ IDV_TAMPER_LEARNED: 'review' });
  let card: GenuineSource;
  let print: Awaited<ReturnType<typeof photocopyOnCapture>>;
  beforeAll(async () => {
    card = await drawColourCard(seededRng(41), 'test-card');
    // A colour copy under a warm lamp (the corpus's print photographed), keeping enough colour
    // that the colour spread (0.015) does not flag it; the classifier reads it as a copy.
    const lamp = seededRng(89);
    print = await photocopyOnCapture(roomLight(await colourCopy(card.image, lamp), lamp), 189);
  }, SLOW.timeout);

  it('a print photographed that the colour spread misses is a review', SLOW, async () => {
    expect(print.measures['front.learned_copy']).toBeGreaterThanOrEqual(LEARNED_COPY_REVIEW.sign);
    expect(print.sign?.severity).toBe('medium');
    expect(print.sign!.strength).toBeLessThanOrEqual(REVIEW_MAX_STRENGTH);
  });

  it('by default (the screen part alone) the same print raises no sign', SLOW, async () => {
    process.env.IDV_TAMPER_LEARNED = 'screen';
    try {
      const lamp = seededRng(89);
      const again = await photocopyOnCapture(roomLight(await colourCopy(card.image, lamp), lamp), 189);
      expect(again.sign).toBeUndefined();
    } finally {
      process.env.IDV_TAMPER_LEARNED = 'review';
    }
  });

  it('the genuine card photographed raises no photocopy sign', SLOW, async () => {
    const genuine = await photocopyOnCapture(card.image, 52);
    expect(genuine.measures['front.learned_copy']).toBeLessThan(LEARNED_COPY_REVIEW.sign);
    expect(genuine.sign).toBeUndefined();
  });
});
