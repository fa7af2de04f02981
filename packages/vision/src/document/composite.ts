import type { TextLine } from '../ocr/page.ts';

/**
 * A card photographed front and back in one picture (side by side or one above the other). Its
 * MRZ tells where the back is: an ID-1 card's MRZ spans about 0.9 of the card's width along its
 * bottom edge, and the card is 54/85.6 as tall as wide, so the back reaches about 0.7 MRZ widths
 * above the MRZ's bottom. Lines whose centre lies in that box are the back's; the rest of the
 * page is the front, whose printed zone (names, number, birth date) is then read on its own
 * instead of being mixed with the back's labels (issue date, authority) as one page.
 */

/** Back card's box around its MRZ block, in MRZ widths: sideways margin, height above, below. */
const SIDE_MARGIN = 0.12;
const ABOVE = 0.76;
const BELOW = 0.1;
/** Fewer lines than this outside the back's box are stray text, not a card front. */
const MIN_FRONT_LINES = 3;

export interface CompositeSplit {
  /** Indexes of the page lines on the back (MRZ lines included). */
  back: number[];
  /** Indexes of the page lines on the front. */
  front: number[];
}

/** The page's lines split into back and front, or null when the page shows one document. */
export function splitComposite(lines: TextLine[], mrzLineIndexes: number[]): CompositeSplit | null {
  const rows = mrzLineIndexes.map((i) => lines[i]).filter((l): l is TextLine => l !== undefined);
  if (rows.length === 0) return null;
  const left = Math.min(...rows.map((l) => l.left));
  const right = Math.max(...rows.map((l) => l.left + l.length));
  const bottom = Math.max(...rows.map((l) => l.y + l.height / 2));
  const w = right - left;
  const back: number[] = [];
  const front: number[] = [];
  lines.forEach((l, i) => {
    const inside =
      l.x >= left - SIDE_MARGIN * w &&
      l.x <= right + SIDE_MARGIN * w &&
      l.y >= bottom - ABOVE * w &&
      l.y <= bottom + BELOW * w;
    (inside || mrzLineIndexes.includes(i) ? back : front).push(i);
  });
  return front.length >= MIN_FRONT_LINES ? { back, front } : null;
}
