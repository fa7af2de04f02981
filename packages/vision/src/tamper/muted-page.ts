import { reviewStrength } from './descriptions.ts';
import { optOutCueOn } from './opt-in-cues.ts';
import { PHOTOCOPY_MAX_SPREAD } from './photocopy.ts';

/**
 * A muted page: a colour copy keeps some of the document's colour (a copier or a home printer
 * keeps 15–45 % of the saturation, corpus/photocopy.ts), enough for the colour spread to stay
 * above its flag bar (photocopy.ts) on a colourful document. But the copy mutes every colour by
 * the same factor, the strongest too: the page colour peak (page-colour.ts, the most saturated
 * cells anywhere on the document) falls with the spread. A genuine page low in colour keeps
 * either a fair spread or a saturated mark (the pale prints' flag stripe and gold title), so
 * both low together is a review.
 *
 * Only on a document page read as such (PAGE_SCALE: not Niger's paper card, which is muted by
 * nature and has its own rule, paper-card-copy.ts; not a card's back), with the document's extent
 * known from the reading step, and never a fail: its bars are set on generated pages and 4 real
 * ones, and real genuine pages have lower peaks than the generated ones (below).
 */

/**
 * The bars, from the tuning side only (docs/decisions.md, issue 14, "A muted page"; the fresh draw
 * `s26-tune` and the generated tuning half: 91 genuine captures, 300 under glare, blur and marks,
 * 91 colour copies and 91 prints photographed; the fixtures' 4 real tuning pages):
 * - `peak`: the real genuine pages' page colour peaks are the lowest genuine ones, 0.080–0.159
 *   (synthetic genuine pages 0.11 and up, under the hazards 0.103 and up); colour copies the
 *   spread misses read 0.04–0.18, most under 0.10. 0.07 keeps a margin of 0.01 under the lowest
 *   real page.
 * - `spread`: the copies the spread misses lie just above its flag bar (0.012–0.03); above 0.02
 *   the bar gains few (2 colour copies of 91 to 0.025) and nears the real genuine pages' spreads
 *   (0.0169–0.034, the lowest peak among them at 0.0205).
 * At these bars: colour copies caught rose by 13 and prints photographed by 4 of 91 each, no
 * genuine capture (plain, under hazards or real) newly flagged.
 */
export const MUTED_PAGE = { spread: 0.02, peak: 0.07 } as const;

/** On by default; IDV_TAMPER_MUTED_PAGE=0 turns it off (read per call, for evaluations). */
export const mutedPageOn = (): boolean => optOutCueOn('MUTED_PAGE');

/**
 * The sign's strength, null for none: a review at most (reviewStrength), from 0.01 at either bar
 * to REVIEW_MAX_STRENGTH when the spread reaches the spread cue's own flag bar and the page has no
 * colour peak at all (the weaker of the two shares counts). NaN measures (too few mid-tones) give
 * no sign.
 */
export function mutedPageStrength(spread: number, peak: number): number | null {
  if (!(spread <= MUTED_PAGE.spread) || !(peak <= MUTED_PAGE.peak)) return null;
  const spreadShare = (MUTED_PAGE.spread - spread) / (MUTED_PAGE.spread - PHOTOCOPY_MAX_SPREAD);
  const peakShare = (MUTED_PAGE.peak - peak) / MUTED_PAGE.peak;
  return Math.round(reviewStrength(Math.min(spreadShare, peakShare)) * 100) / 100;
}
