import { beforeAll, describe, expect, it } from 'vitest';
import { drawColourCard } from '../../scripts/eval/corpus/colour-card.ts';
import { colourCopy, colourPrint, roomLight } from '../../scripts/eval/corpus/photocopy.ts';
import { seededRng } from '../../scripts/eval/corpus/rng.ts';
import type { GenuineSource } from '../../scripts/eval/corpus/types.ts';
import { LEARNED_COPY } from '../../src/tamper/capture-model.ts';
import { ALONE_MAX_STRENGTH, type CopyCues, copyStrength } from '../../src/tamper/copy-agreement.ts';
import { PHOTOCOPY_MAX_SPREAD } from '../../src/tamper/photocopy.ts';
import { paleTints, photocopyOnCapture, withCopyCues } from './copy-sign.ts';

const SLOW = { timeout: 240_000 };

const none: CopyCues = { colour: null, learned: null, speckle: null };

describe('the photocopy sign from agreeing cues', () => {
  it('one cue alone, however strong, stays under high severity', () => {
    expect(copyStrength({ ...none, colour: 1 })).toBe(ALONE_MAX_STRENGTH);
    expect(copyStrength({ ...none, learned: 0.98 })).toBe(ALONE_MAX_STRENGTH);
    expect(copyStrength({ ...none, speckle: 1 })).toBe(ALONE_MAX_STRENGTH);
    // A weak single cue keeps its own strength (a review).
    expect(copyStrength({ ...none, colour: 0.2 })).toBe(0.2);
    expect(copyStrength(none)).toBeNull();
  });

  it('two agreeing cues make it high, the stronger one above that', () => {
    // Both just past their bars (strength 0): high all the same.
    expect(copyStrength({ ...none, colour: 0, speckle: 0 })).toBe(0.5);
    expect(copyStrength({ ...none, colour: 0.9, learned: 0.1 })).toBe(0.9);
    expect(copyStrength({ colour: 0.2, learned: 0.6, speckle: 0.1 })).toBe(0.6);
  });
});

/**
 * The tamper step with the copy cues agreeing (IDV_TAMPER_COPY_AGREE=1, the other switches at
 * their defaults) on a colour card drawn here, forged and captured by the attack corpus's
 * generators: the colour copy keeps enough colour for the colour spread to miss it, so only the
 * classifier and the speckle can catch it, and the genuine captures (the card, and the card
 * printed in pale tints, as grey as a copy to the colour spread) must not fail.
 */
describe('copies on generated captures, the copy cues agreeing', () => {
  withCopyCues({ IDV_TAMPER_COPY_AGREE: '1' });
  let card: GenuineSource;
  beforeAll(async () => {
    card = await drawColourCard(seededRng(71), 'agreement-card');
  });

  const copySign = photocopyOnCapture;

  it('catches a colour copy the colour spread misses', SLOW, async () => {
    const { sign, measures } = await copySign(await colourCopy(card.image, seededRng(72)), 73);
    expect(measures['front.spread']).toBeGreaterThan(PHOTOCOPY_MAX_SPREAD);
    // The classifier and the speckle agree: a tamper fail.
    expect(measures['front.learned_copy']).toBeGreaterThanOrEqual(LEARNED_COPY.sign);
    expect(sign?.severity).toBe('high');
  });

  it('catches a colour print photographed under a lamp', SLOW, async () => {
    const lamp = seededRng(74);
    const { sign, measures } = await copySign(roomLight(await colourPrint(card.image, lamp), lamp), 75);
    // The halftone keeps the colour (spread over the bar) and leaves no flat paper for the
    // speckle: the classifier alone sees it, a review.
    expect(measures['front.spread']).toBeGreaterThan(PHOTOCOPY_MAX_SPREAD);
    expect(measures['front.learned_copy']).toBeGreaterThanOrEqual(LEARNED_COPY.high);
    expect(sign).toBeDefined();
  });

  it(
    'without the switch, the colour copy passes (the default is the colour spread alone)',
    SLOW,
    async () => {
      delete process.env.IDV_TAMPER_COPY_AGREE;
      try {
        const { sign } = await copySign(await colourCopy(card.image, seededRng(72)), 73);
        expect(sign).toBeUndefined();
      } finally {
        process.env.IDV_TAMPER_COPY_AGREE = '1';
      }
    },
  );

  it('does not fail the genuine card, nor the card printed in pale tints', SLOW, async () => {
    const genuine = await copySign(card.image, 76);
    expect(genuine.sign?.severity).not.toBe('high');
    const pale = await copySign(paleTints(card.image, 0.25), 77);
    expect(pale.sign?.severity).not.toBe('high');
  });
});
