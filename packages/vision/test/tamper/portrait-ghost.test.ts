import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { swapPortrait } from '../../scripts/eval/corpus/portrait.ts';
import { type Rng, seededRng, seedOf } from '../../scripts/eval/corpus/rng.ts';
import { synthSource } from '../../scripts/eval/corpus/synth-sources.ts';
import type { GenuineSource } from '../../scripts/eval/corpus/types.ts';
import { GHOST_MATCH_MIN, ghostMismatchStrength } from '../../src/tamper/portrait-ghost.ts';
import { tamperOn } from './page-capture.ts';

/**
 * The ghost cue of `portrait_edge` on the attack corpus's own documents: a synthetic passport
 * page that prints a ghost image (scripts/eval/corpus/synth-sources.ts, real photos), captured by
 * the corpus's phone simulation, genuine and with its main portrait swapped for another person's
 * (the ghost left as printed, as a forger leaves it). Each run draws, captures and analyses a
 * full page: seconds each, longer on a loaded machine.
 */
const SLOW = { timeout: 240_000 };

/** The tamper step's signs on a phone capture (page-capture.ts) and the ghost score it measured. */
async function tamperOnGhost(source: GenuineSource, image: GenuineSource['image'], rng: Rng) {
  const measures: Record<string, number> = {};
  const signals = await tamperOn(source, image, rng, measures);
  return { signals, ghostMatch: measures['front.ghost_match'] };
}

describe('portrait ghost', () => {
  it('maps a portrait/ghost score to a sign only below the match bar, high for a stranger', () => {
    expect(ghostMismatchStrength(GHOST_MATCH_MIN + 0.5)).toBeNull();
    expect(ghostMismatchStrength(GHOST_MATCH_MIN - 0.1)).toBeLessThan(0.5);
    expect(ghostMismatchStrength(0)).toBeGreaterThanOrEqual(0.5);
  });

  it(
    'leaves a genuine page with its ghost alone; a swapped portrait is a portrait_edge sign (cue on)',
    SLOW,
    async () => {
      // Tuning-half synthetic sources: a passport page printing a ghost, and a page showing
      // another person (its portrait is the donor).
      const page = await synthSource('tuning', 25);
      const donor = await synthSource('tuning', 0);
      expect(page.name).toMatch(/passport-b/);
      expect(donor.portraitId).not.toBe(page.portraitId);
      const genuine = await tamperOnGhost(page, page.image, seededRng(seedOf(`${page.name}:bona`)));
      expect(genuine.signals.map((s) => s.type)).not.toContain('portrait_edge');
      // The score the evaluation's --dump records (front.ghost_match): the same person.
      expect(genuine.ghostMatch).toBeGreaterThanOrEqual(GHOST_MATCH_MIN);
      const rng = seededRng(seedOf(`${page.name}:blended`));
      const swapped = await swapPortrait(
        page.image,
        page.boxes.portrait!,
        donor.image,
        donor.boxes.portrait!,
        'blended',
        rng,
      );
      const { signals, ghostMatch } = await tamperOnGhost(page, swapped, rng);
      expect(signals.find((s) => s.type === 'portrait_edge')?.severity).toBe('high');
      expect(ghostMatch).toBeLessThan(GHOST_MATCH_MIN);
    },
  );

  // Opt-in (tamper/index.ts): the cases above run with the cue switched on.
  beforeAll(() => {
    process.env.IDV_TAMPER_GHOST = '1';
  });
  afterAll(() => {
    delete process.env.IDV_TAMPER_GHOST;
  });
});
