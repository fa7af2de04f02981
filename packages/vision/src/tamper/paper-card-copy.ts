import { REVIEW_MAX_STRENGTH, reviewStrength } from './descriptions.ts';

/**
 * The `photocopy` sign on Niger's paper card, from the colour spread and the capture classifier
 * together. The paper card is copy-like by nature (tinted paper, a black and white photo, few
 * inks): the colour spread flags many genuine cards (on the tuning side 29 of 95 genuine
 * captures, plain and under glare, blur and marks) and misses many copies, so on that layout its
 * sign is a review at most (index.ts). The capture classifier was trained on drawn paper cards
 * as bona fide and reads them apart from their copies better than the spread does:
 * - the spread's sign stands only when the classifier does not clear the card, p(copy) ≥ 0.40
 *   (`confirm`): genuine paper cards the spread flags on the tuning side read 0.23–0.75, most
 *   under 0.40; copies it flags read 0.29–0.77, one of them under 0.40;
 * - the classifier raises the sign alone from p(copy) 0.70 (`alone`): no genuine tuning capture
 *   of a paper card reads that high unless the spread flags it too (one, under glare, at 0.75),
 *   while prints photographed read up to 0.99.
 * Tuning side (fresh draw `s22-tune` and the generated tuning half, 35 paper cards, plus
 * `s22-tune`'s paper cards under the four hazards): genuine flagged 29 → 17 of 95; copies
 * caught: grey 29 → 29, colour 16 → 16, prints photographed 21 → 31 of 35. docs/decisions.md,
 * issue 14, "Niger's paper card: the copy sign from the colour spread and the classifier".
 *
 * The bars are the generated paper cards' (no real paper card is among the fixtures); real
 * genuine pages of other layouts read higher than generated ones (capture-model.ts), which here
 * would keep the spread's sign (as before) or add a review, never a fail.
 */
export const PAPER_CARD_COPY = { confirm: 0.4, alone: 0.7 };

/**
 * The paper card's `photocopy` strength (a review at most), null for no sign. `fromCues` is the
 * sign the copy cues would raise on any other layout (by default the colour spread's), `pCopy`
 * the classifier's p(copy).
 */
export function paperCardCopyStrength(fromCues: number | null, pCopy: number): number | null {
  const confirmed = fromCues !== null && pCopy >= PAPER_CARD_COPY.confirm ? fromCues : null;
  const alone =
    pCopy >= PAPER_CARD_COPY.alone
      ? reviewStrength((pCopy - PAPER_CARD_COPY.alone) / (1 - PAPER_CARD_COPY.alone))
      : null;
  if (confirmed === null && alone === null) return null;
  return Math.min(REVIEW_MAX_STRENGTH, Math.max(confirmed ?? 0, alone ?? 0));
}
