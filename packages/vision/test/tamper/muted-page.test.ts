import { afterEach, describe, expect, it } from 'vitest';
import { drawColourCard } from '../../scripts/eval/corpus/colour-card.ts';
import { seededRng } from '../../scripts/eval/corpus/rng.ts';
import { MUTED_PAGE, mutedPageStrength } from '../../src/tamper/muted-page.ts';
import { PHOTOCOPY_MAX_SPREAD } from '../../src/tamper/photocopy.ts';
import { paleTints, photocopyOnCapture, withCopyCues } from './copy-sign.ts';

const SLOW = { timeout: 240_000 };

describe('the muted page rule', () => {
  it('needs both the spread and the page colour peak at or under their bars', () => {
    expect(mutedPageStrength(MUTED_PAGE.spread + 0.001, 0)).toBeNull();
    expect(mutedPageStrength(PHOTOCOPY_MAX_SPREAD, MUTED_PAGE.peak + 0.001)).toBeNull();
    // At the bars, a sign that still shows; at the spread cue's own bar with no colour at all,
    // a review at its strongest, never high severity.
    expect(mutedPageStrength(MUTED_PAGE.spread, MUTED_PAGE.peak)).toBe(0.01);
    expect(mutedPageStrength(PHOTOCOPY_MAX_SPREAD, 0)).toBe(0.49);
    expect(mutedPageStrength(0.001, 0)).toBe(0.49);
    // The weaker share counts.
    expect(mutedPageStrength(PHOTOCOPY_MAX_SPREAD, MUTED_PAGE.peak / 2)).toBe(0.25);
    // Too few mid-tones to measure: no sign.
    expect(mutedPageStrength(Number.NaN, 0)).toBeNull();
    expect(mutedPageStrength(0.015, Number.NaN)).toBeNull();
  });
});

/**
 * A colour card drawn here and muted to 38 % of its colour, as a colour copier leaves it: its
 * colour spread stays above the spread cue's flag bar, so only the muted page sees it.
 */
describe('a colour card muted as a copy keeps it', () => {
  withCopyCues();
  afterEach(() => {
    delete process.env.IDV_TAMPER_MUTED_PAGE;
  });

  it('is a review with the cue, nothing without it; the genuine card raises nothing', SLOW, async () => {
    const card = await drawColourCard(seededRng(81), 'muted-card-81');
    const genuine = await photocopyOnCapture(card.image, 90);
    expect(genuine.sign).toBeUndefined();
    expect(genuine.measures['front.page_peak']!).toBeGreaterThan(MUTED_PAGE.peak);

    const muted = paleTints(card.image, 0.38);
    const copy = await photocopyOnCapture(muted, 90);
    expect(copy.measures['front.spread']!).toBeGreaterThan(PHOTOCOPY_MAX_SPREAD);
    expect(copy.measures['front.spread']!).toBeLessThanOrEqual(MUTED_PAGE.spread);
    expect(copy.measures['front.page_peak']!).toBeLessThanOrEqual(MUTED_PAGE.peak);
    expect(copy.sign).toMatchObject({ severity: 'medium', side: 'front' });
    expect(copy.sign!.strength).toBe(
      mutedPageStrength(copy.measures['front.spread']!, copy.measures['front.page_peak']!),
    );

    // As in service, without measures (the spread ranked only under the muted page's bar).
    expect((await photocopyOnCapture(muted, 90, 'unknown', false)).sign).toEqual(copy.sign);

    process.env.IDV_TAMPER_MUTED_PAGE = '0';
    expect((await photocopyOnCapture(muted, 90)).sign).toBeUndefined();
  });
});
