import type { TextLine } from '../ocr/page.ts';
import { fold } from './text.ts';

/**
 * The printed document number checked against its own shape. A number is made of runs of letters
 * and runs of digits ("OZ4637522", "68136CC03", the Sahel card's 17 digits), and the printed
 * zone's fonts draw O and 0, I and 1, Z and 2, S and 5, B and 8 alike: the recogniser reads one
 * for the other. A wrong number is worse than none (viz_mrz_consistency fails a genuine document
 * on it), so a number whose shape shows such a confusion is mended only where the shape leaves
 * one reading, and dropped where it leaves two.
 */

/** The letter each digit is drawn like. */
const LETTER_OF_DIGIT: Readonly<Record<string, string>> = {
  '0': 'O',
  '1': 'I',
  '2': 'Z',
  '5': 'S',
  '8': 'B',
};
/** Letters drawn like digits. */
const DIGIT_LIKE_LETTERS = /[OIZSBDQG]/;

/**
 * The number as its shape reads it, null when the shape leaves two readings:
 * - one digit drawn like a letter, alone before the letters that open the number, is that
 *   letter ("0D1767183" is "OD1767183": a letter prefix whose first letter was read as a digit);
 * - a letter drawn like a digit alone among digits ("12345O789": a 0 read as O, or a letter
 *   pair's other half read as a digit) is a confusion whose right side the text cannot tell: no
 *   value. Only such letters: real numbering schemes put single letters among digits
 *   (ICAO 9303's specimen passport number has one, as do some national series), so a letter
 *   that looks like no digit is a letter of the number, even beside a 0 or a 1.
 */
export function numberByShape(value: string): string | null {
  const lead = /^([0-9])([A-Z]+)(?=[0-9])/.exec(value);
  const mended = lead && LETTER_OF_DIGIT[lead[1]!] ? LETTER_OF_DIGIT[lead[1]!]! + value.slice(1) : value;
  for (const m of mended.matchAll(/(?<=([0-9]))([A-Z])(?=([0-9]))/g)) {
    const letter = m[2]!;
    if (DIGIT_LIKE_LETTERS.test(letter)) return null;
  }
  return mended;
}

/** A number that may continue in another box: digits only, more than the MRZ's 9 positions. */
const LONG_DIGITS = /^[0-9]{10,}$/;

/** A box continues a line when it starts within this many line heights of the line's end. */
const CONTINUATION_MAX_GAP = 1;

/**
 * A number the detector split into two boxes on its row ("NNo1239690625122" + "28104": a long
 * number whose digits are spaced): when the number ends its line, a box of digits only that
 * starts right where the line ends, on the same row, is the rest of it. Digits only, so that a
 * neighbouring date or word is never taken for the number's end. Boxes that overlap have read the
 * digits under the overlap twice: as many as the overlap is wide (± one) are dropped when they
 * repeat the number's last ones; null when none does (the number is split, its join unclear).
 */
export function continuedOnRow(lines: readonly TextLine[], i: number, value: string): string | null {
  const line = lines[i]!;
  // Only a long run of digits is continued (the Sahel card's number, past the MRZ's 9 positions):
  // a passport or card number of usual length is whole, and a digits-only box after it on its row
  // is another field (a personal number, a date printed without separators).
  if (!LONG_DIGITS.test(value)) return value;
  if (!squash(fold(line.text)).endsWith(value)) return value;
  const end = line.left + line.length;
  const charWidth = line.length / Math.max(1, line.text.length);
  for (const [j, l] of lines.entries()) {
    if (j === i) continue;
    const h = Math.max(line.height, l.height);
    if (Math.abs(l.y - line.y) > 0.5 * h) continue;
    if (Math.abs(l.left - end) > CONTINUATION_MAX_GAP * h) continue;
    const text = fold(l.text);
    if (!/^[0-9][0-9 ]*$/.test(text)) continue;
    const rest = squash(text);
    const overlap = Math.round(Math.max(0, end - l.left) / charWidth);
    if (overlap === 0) return value + rest;
    const repeated = [overlap, overlap - 1, overlap + 1].find(
      (k) => k >= 1 && k < rest.length && value.endsWith(rest.slice(0, k)),
    );
    return repeated === undefined ? null : value + rest.slice(repeated);
  }
  return value;
}

function squash(text: string): string {
  return text.replace(/\s+/g, '');
}
