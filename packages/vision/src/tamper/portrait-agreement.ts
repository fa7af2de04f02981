import { REVIEW_MAX_STRENGTH } from './descriptions.ts';
import { PORTRAIT_SWAP } from './portrait-model.ts';
import type { SeamMeasure } from './portrait-seam.ts';

/**
 * `portrait_edge` when two portrait cues agree, each below the bar it has alone: the swap
 * classifier (portrait-model.ts, a sign from p(swap) 0.80) and the seam all around the face
 * (portrait-seam.ts, opt-in alone). Each misreads genuine portraits its own way: the classifier
 * a page whose print it has not seen, the seam a photo printed with a hard frame on a tinted
 * page. A pasted or blended photo shows both, a swapped look and a step on all four sides.
 *
 * Bars, from the tuning side only (docs/decisions.md, issue 14, "Portrait swaps: the classifier
 * and the seam agreeing"; the fresh draw `s21-tune` and the generated tuning half, 90 synthetic
 * genuine captures and 90 of each swap kind, and the fixtures' 3 real tuning pages):
 * - p(swap): synthetic genuine captures reach 0.62, the real tuning pages 0.67;
 * - the seam's weakest side: the real tuning pages' genuine portraits 0.32–0.56 (the synthetic
 *   ones reach 1.0: their photos are composited with a hard frame, hence the classifier too).
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
  const share = Math.min(1, swapShare, seamShare);
  return Math.round((0.01 + share * (REVIEW_MAX_STRENGTH - 0.01)) * 100) / 100;
}
