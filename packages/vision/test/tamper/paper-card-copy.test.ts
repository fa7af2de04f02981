import { beforeAll, describe, expect, it } from 'vitest';
import { drawPaperCard } from '../../scripts/eval/corpus/paper-card.ts';
import { colourCopy, roomLight } from '../../scripts/eval/corpus/photocopy.ts';
import { seededRng } from '../../scripts/eval/corpus/rng.ts';
import type { GenuineSource } from '../../scripts/eval/corpus/types.ts';
import { REVIEW_MAX_STRENGTH } from '../../src/tamper/descriptions.ts';
import { PAPER_CARD_COPY, paperCardCopyStrength } from '../../src/tamper/paper-card-copy.ts';
import { photocopyOnCapture, withCopyCues } from './copy-sign.ts';

const SLOW = { timeout: 240_000 };

describe("the paper card's copy sign: the spread's sign and the classifier's p(copy)", () => {
  it.each([
    // [the copy cues' sign, p(copy), the paper card's sign]
    [null, 0.2, null],
    [null, 0.69, null],
    [0.3, 0.39, null], // the classifier clears the spread's sign
    [0.3, 0.4, 0.3], // it does not: the spread's sign stands
    [0.49, 0.55, 0.49],
    [null, 0.7, 0.01], // the classifier alone, from its bar
    [null, 0.85, 0.25],
    [0.1, 0.85, 0.25], // both: the stronger
    [null, 1, REVIEW_MAX_STRENGTH],
    [1, 0.9, REVIEW_MAX_STRENGTH], // never above a review on this layout
  ])('cues %s, p(copy) %f → %s', (fromCues, p, expected) => {
    const s = paperCardCopyStrength(fromCues, p);
    if (expected === null) expect(s).toBeNull();
    else expect(s).toBeCloseTo(expected, 6);
  });
});

/**
 * Paper cards drawn here (seeds no evaluation draws), photographed as the attack corpus does.
 * With the classifier off (IDV_TAMPER_LEARNED=0) the tamper step falls back on the colour
 * spread alone, which misreads both pictures; with the classifier (the default) both are read
 * right.
 */
describe('the paper card on generated captures (the trained weights)', () => {
  withCopyCues();
  let genuine: GenuineSource;
  let printed: GenuineSource;
  beforeAll(async () => {
    genuine = await drawPaperCard(seededRng(64), 'paper-copy-test-64');
    printed = await drawPaperCard(seededRng(65), 'paper-copy-test-65');
  }, SLOW.timeout);

  const withoutClassifier = async <T>(run: () => Promise<T>): Promise<T> => {
    process.env.IDV_TAMPER_LEARNED = '0';
    try {
      return await run();
    } finally {
      delete process.env.IDV_TAMPER_LEARNED;
    }
  };

  it('a genuine card the colour spread flags is cleared by the classifier', SLOW, async () => {
    const capture = () => photocopyOnCapture(genuine.image, 164, 'niger_paper_card');
    const spreadAlone = await withoutClassifier(capture);
    expect(spreadAlone.sign?.severity).toBe('medium');
    const both = await capture();
    expect(both.measures['front.learned_copy']).toBeLessThan(PAPER_CARD_COPY.confirm);
    expect(both.sign).toBeUndefined();
  });

  it('a print photographed that keeps enough colour for the spread is a review', SLOW, async () => {
    const capture = async () => {
      const lamp = seededRng(652);
      const print = roomLight(await colourCopy(printed.image, lamp), lamp);
      return photocopyOnCapture(print, 1652, 'niger_paper_card');
    };
    const spreadAlone = await withoutClassifier(capture);
    expect(spreadAlone.sign).toBeUndefined();
    const both = await capture();
    expect(both.measures['front.learned_copy']).toBeGreaterThanOrEqual(PAPER_CARD_COPY.alone);
    expect(both.sign?.severity).toBe('medium');
  });
});
