import { learnedStrength } from './capture-model.ts';
import { REVIEW_MAX_STRENGTH, reviewStrength } from './descriptions.ts';
import { PORTRAIT_SWAP } from './portrait-model.ts';
import { SEAM_MIN_COVERAGE, type SeamMeasure } from './portrait-seam.ts';

/**
 * How the swap classifier and the seam combine into `portrait_edge`.
 *
 * First, two portrait cues agreeing, each below the bar it has alone: the swap
 * classifier (portrait-model.ts, a sign from p(swap) 0.80) and the seam all around the face
 * (portrait-seam.ts, opt-in alone). Each misreads genuine portraits its own way: the classifier
 * a page whose print it has not seen, the seam a photo printed with a hard frame on a tinted
 * page. A pasted or blended photo shows both, a swapped look and a step on all four sides.
 *
 * Bars, from the tuning side only (docs/decisions.md, issue 14, "Portrait swaps: the classifier
 * and the seam agreeing"; the fresh draw `s21-tune` and the generated tuning half, 90 synthetic
 * genuine captures and 90 of each swap kind, and the fixtures' 3 real tuning pages):
 * - p(swap): synthetic genuine captures reach 0.62, the real tuning pages 0.67;
 * - the seam's weakest side: the real tuning pages' genuine portraits 0.32–0.56; the synthetic
 *   ones reach 1.0 (their photos are composited with a hard frame), which is why the seam alone
 *   is not enough.
 * No genuine capture of the tuning side has both p(swap) ≥ 0.6 and a seam ≥ 0.7; pasted swaps
 * caught rose from 42 to 65 of 90, blended from 35 to 61, and 2 of the 3 real pages' pasted swaps.
 */
export const SWAP_WITH_SEAM = { swap: 0.6, seam: 0.7 } as const;

/**
 * The sign's strength (0 for none): from 0.01 at the two bars up to a review (REVIEW_MAX_STRENGTH)
 * when the weaker of the two reaches its own certainty (the classifier's sign bar, a seam on every
 * side at every position). Never a fail: the tuning side holds 3 real genuine portraits, too few
 * to know how often a real page misleads both cues at once, and a fail blocks `verified`.
 */
export function swapWithSeamStrength(swap: number | null, seam: SeamMeasure | null): number {
  if (swap === null || seam === null) return 0;
  if (swap < SWAP_WITH_SEAM.swap || seam.weakest < SWAP_WITH_SEAM.seam) return 0;
  const swapShare = (swap - SWAP_WITH_SEAM.swap) / (PORTRAIT_SWAP.sign - SWAP_WITH_SEAM.swap);
  const seamShare = (seam.weakest - SWAP_WITH_SEAM.seam) / (1 - SWAP_WITH_SEAM.seam);
  return Math.round(reviewStrength(Math.min(swapShare, seamShare)) * 100) / 100;
}

/**
 * Second, the classifier's own sign (PORTRAIT_SWAP: from p(swap) 0.80, high severity from 0.95)
 * fails the check only when the seam agrees (weakest side ≥ SEAM_MIN_COVERAGE); without it the
 * sign stays a review. Why: every swap of the tuning side that the classifier put at 0.95 or more
 * also stepped on all four sides (91 of 91: pasted 17, blended 5, reglued 69 on `s21-tune` and
 * the generated tuning half), while the classifier's known misreadings of genuine pages do not:
 * a crease across a drawn colour card's portrait (p 0.97, seam 0.44 on the tuning draw
 * `s20-tune`) failed the genuine card. A portrait too small for the seam (seam null) is a review
 * at most for the same reason.
 */
export function swapSignStrength(swap: number | null, seam: SeamMeasure | null): number {
  if (swap === null) return 0;
  const alone = learnedStrength(swap, PORTRAIT_SWAP) ?? 0;
  const seamed = seam !== null && seam.weakest >= SEAM_MIN_COVERAGE;
  return seamed ? alone : Math.min(alone, REVIEW_MAX_STRENGTH);
}
