import { quantile } from '../image/stats.ts';
import { reviewStrength } from './descriptions.ts';
import { departure } from './font-consistency.ts';

/**
 * `field_overwritten`, a value typed again in another face or weight. A document prints its
 * values in one face and weight; a forger who paints a value over and types a new one seldom
 * finds the same face (the corpus's overwrites are typed in DejaVu Sans, Serif or Mono at their
 * regular weight over bold values). The weight (font-consistency.ts fieldWeight: the capitals'
 * stroke width over their height) is a property of the face, the same under any light and at any
 * size, where the tone and typed-text cues compare what the capture changes (paper tone, ink
 * contrast, edge sharpness). Each value is compared with the median of its side's other values.
 */

export interface WeighedValue {
  field: string;
  side: 'front' | 'back';
  /** fieldWeight of the value. */
  weight: number;
}

/**
 * A value is judged against the median of at least this many other values of its side: with
 * fewer, an odd one among the others moves the median as far as the bar.
 */
const MIN_OTHER_VALUES = 3;

/**
 * A value whose weight departs from the median of its side's others by more than this (either
 * way: `departure`) is of another face or weight. Measured on the tuning side only
 * (docs/decisions.md, issue 14, "A value typed in another weight"; the fresh draws `s25-tune` and
 * `s25-haz-tune`, read boxes): bona fide values depart by at most 0.235 on plain captures (a
 * Sahel card's number, its digits a little lighter than its names), 0.274 under stamps and
 * handwriting, 0.25 under glare. Blur spreads them further: 0.36–0.41 on sides whose blur dulls
 * fine print (dullsFinePrint; not weighed), 0.45 on a soft date with two other values (below
 * MIN_OTHER_VALUES). Overwritten values: 54 of 75 weighed depart by 0.35–1.08 (a regular face
 * over a bold one); the others by 0.01–0.17, as little as genuine values (a face near the page's
 * weight).
 */
export const VALUE_WEIGHT_DEVIATION = 0.35;
/**
 * A value lighter than this is not weighed, neither judged nor company for the others: no face
 * printed for a value is that light, but letters drawn as outlines are (a specimen's "SPECIMEN"
 * overprint, read as its surname on a real passport of the fixtures' tuning half: 0.045 beside
 * dates of 0.165). The regular faces a forger types measure 0.11 and up (the corpus's overwrites
 * on the tuning draw `s25-tune`).
 */
const MIN_VALUE_WEIGHT = 0.07;
/** Deviation at which the sign reaches the top of a review: a regular face over a bold one. */
const VALUE_WEIGHT_UNMISTAKABLE = 0.7;

/**
 * Values whose weight departs from their side's others past VALUE_WEIGHT_DEVIATION, with the
 * sign's strength: a review at most (reviewStrength). Never a fail alone: real documents may
 * print one value (a number, a surname) in a face of its own, and the real pages of the tuning
 * half hold too few values to show how often.
 */
export function weightOutliers(
  values: WeighedValue[],
): { field: string; side: 'front' | 'back'; strength: number }[] {
  const out: { field: string; side: 'front' | 'back'; strength: number }[] = [];
  const weighed = values.filter((v) => v.weight >= MIN_VALUE_WEIGHT);
  for (const v of weighed) {
    const others = weighed.filter((o) => o !== v && o.side === v.side).map((o) => o.weight);
    if (others.length < MIN_OTHER_VALUES) continue;
    const median = quantile(others, 0.5);
    const deviation = departure(v.weight, median);
    if (deviation <= VALUE_WEIGHT_DEVIATION) continue;
    const share = (deviation - VALUE_WEIGHT_DEVIATION) / (VALUE_WEIGHT_UNMISTAKABLE - VALUE_WEIGHT_DEVIATION);
    out.push({ field: v.field, side: v.side, strength: Math.round(reviewStrength(share) * 100) / 100 });
  }
  return out;
}
