import type { TextLine } from '../ocr/page.ts';
import { type PrintedRead, withNumberChecked } from '../viz/fields.ts';
import { fold } from '../viz/text.ts';
import type { Classification } from './classify.ts';

/**
 * The Sahel alliance's biometric card number checked against the card's own number shape. The
 * printed zone reads a number without knowing the document (viz/number-shape.ts checks only the
 * shape every number has); here the type is known. The card's number is 17 digits, longer than
 * the MRZ's 9 positions (it continues in the optional data, ICAO 9303): a long all-digit number
 * of another length was read in part, or with the rest of its "N°/No" mark, and a wrong printed
 * number makes viz_mrz_consistency fail a genuine card. Such a number is mended only where the
 * text leaves one reading, else left unread. The MRZ is never looked at: comparing the two is
 * the check, and a number taken from the MRZ would always agree with it.
 */

/** The states of the alliance, as the MRZ's issuing state or the card's wording names them. */
const SAHEL_STATES: ReadonlySet<string> = new Set(['NER', 'MLI', 'BFA']);

/** Digits of the card's long number. */
export const SAHEL_NUMBER_DIGITS = 17;
/** Positions of the MRZ's number field: a number this long or shorter has no continuation. */
const MRZ_NUMBER_POSITIONS = 9;

/** The biometric card of the alliance as the reading classified it: a TD1 card of one of its states. */
export function isSahelCard(c: Classification): boolean {
  return c.type === 'cni' && c.layout === 'td1' && c.country !== null && SAHEL_STATES.has(c.country);
}

/**
 * The number of a Sahel card as its shape reads it, null when it is not the card's shape and
 * the text does not leave one reading of it:
 * - numbers with letters, and numbers of up to 9 digits (a card whose number fits the MRZ's
 *   field), are another shape this rule knows nothing of: kept as read;
 * - 17 digits: the card's number;
 * - 18 or 19 digits glued to the mark's letter N in the line ("N°1N6712…": the o of "No" read as
 *   a digit): the digits before the last 17 are the mark's residue and dropped;
 * - any other long run of digits (a part of the number, 13 of its 17 digits, or more digits
 *   than the mark explains): no value.
 * `lineText` is the text of the line the number was read from (its value and what precedes it).
 */
export function sahelCardNumber(value: string, lineText: string): string | null {
  if (!/^[0-9]+$/.test(value) || value.length <= MRZ_NUMBER_POSITIONS) return value;
  if (value.length === SAHEL_NUMBER_DIGITS) return value;
  const extra = value.length - SAHEL_NUMBER_DIGITS;
  if (extra < 1 || extra > 2) return null;
  const text = fold(lineText).replace(/\s+/g, '');
  const at = text.lastIndexOf(value);
  return at > 0 && text[at - 1] === 'N' ? value.slice(extra) : null;
}

/**
 * The printed fields with a Sahel card's number checked against the card's shape
 * (sahelCardNumber, on the line the number was read from); other documents' fields as read.
 * `pages` are the front and back lines the fields' sources index.
 */
export function withCardNumberShape(
  classification: Classification,
  read: PrintedRead,
  pages: readonly [readonly TextLine[], readonly TextLine[]],
): PrintedRead {
  if (!isSahelCard(classification)) return read;
  return withNumberChecked(read, pages, (value, at) =>
    sahelCardNumber(value, at?.lines[at.index]?.text ?? ''),
  );
}
