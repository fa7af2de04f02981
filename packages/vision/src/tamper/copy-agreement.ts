import { HIGH_STRENGTH, REVIEW_MAX_STRENGTH } from './descriptions.ts';
import { optInCueOn } from './opt-in-cues.ts';

/**
 * The `photocopy` sign from three cues that each see a different trace of a copy: the colour
 * spread (photocopy.ts: a copy loses the document's colour), the capture classifier's p(copy)
 * (capture-model.ts: toner, halftone, lost fine print) and the toner speckle
 * (toner-speckle.ts: stray dots on the blank paper). Each alone misreads some genuine documents:
 * a document printed in pale tints is as grey as a copy, the classifier saw few real genuine
 * pages, and real pages can carry a few dark specks. A copy leaves several traces at once, a
 * genuine document seldom more than one, so the sign is high (a tamper fail) only when two cues
 * agree; one cue alone gives a review at most.
 *
 * Measured on the generated tuning corpus (54 sources: the fixtures' 4 tuning pages, 10 + 10
 * drawn cards, 30 synthetic documents) and the fixtures' tuning half (docs/decisions.md, issue
 * 14, copies): each cue alone at full strength failed 6 of 54 genuine captures (synthetic
 * layouts printed in pale tints, colour spread 0.0075–0.010 before it was weighted by
 * brightness) and 1 of 4 real genuine pages (p(copy) 0.78); with agreement none of them, while
 * colour copies (49/54) and prints photographed (52/54) are still flagged. On the holdouts it
 * did not hold (copyAgreementOn), so it is opt-in.
 */

/** Strength just under high severity (severityFor): one cue alone is a review, never a fail. */
export const ALONE_MAX_STRENGTH = REVIEW_MAX_STRENGTH;
/**
 * A cue agrees when it raises the sign itself, each at its own bar: colour spread under its flag
 * bar (photocopy.ts), p(copy) ≥ 0.6 (LEARNED_COPY.sign), speckle ≥ 1 per 10,000
 * (toner-speckle.ts).
 * A lower bar for the classifier was measured and rejected: tuning-side genuine captures reach
 * p(copy) 0.58, and a genuine card printed in pale tints (as grey as a copy to the colour spread)
 * read 0.576; with agreement from 0.55 it failed on two cues that see one thing, the pale print.
 */
export interface CopyCues {
  /** The colour spread's strength (photocopyStrength), null under its bar. */
  colour: number | null;
  /** The classifier's strength (learnedStrength with LEARNED_COPY), null under its bar. */
  learned: number | null;
  /** The toner speckle's strength (speckleStrength), null under its bar. */
  speckle: number | null;
}

/**
 * The `photocopy` sign's strength, null for no sign. Two or three cues: at least 0.5 (high), the
 * strongest cue's strength above that. One: its strength, held under high severity.
 */
export function copyStrength(cues: CopyCues): number | null {
  const strengths = raisedStrengths(cues);
  if (strengths.length >= 2) return Math.max(HIGH_STRENGTH, ...strengths);
  if (!strengths.length) return null;
  return Math.min(ALONE_MAX_STRENGTH, strengths[0]!);
}

/** The default: each cue raises the sign on its own, the strongest strength counts. */
export function strongestCopyCue(cues: CopyCues): number | null {
  const strengths = raisedStrengths(cues);
  return strengths.length ? Math.max(...strengths) : null;
}

/** The strengths of the cues that raised the sign. */
function raisedStrengths(cues: CopyCues): number[] {
  return [cues.colour, cues.learned, cues.speckle].filter((s): s is number => s !== null);
}

/**
 * Whether the tamper step combines the copy cues by agreement: only with IDV_TAMPER_COPY_AGREE=1
 * (read at each call), which also runs the classifier's copy part and the speckle. Off by
 * default: it held the bar on the tuning side (no genuine capture failed, 0 of 54 generated and
 * 0 of 4 real), but on the fixtures' holdout half, measured once, it failed one more genuine
 * passport (a pale print, spread 0.0149, that the classifier also read as a copy, p 0.68: two
 * cues seeing one thing) and held the one real grey photocopy to a review (its classifier reading
 * 0.37, no speckle); docs/decisions.md, issue 14, copies.
 */
export function copyAgreementOn(): boolean {
  return optInCueOn('COPY_AGREE');
}
