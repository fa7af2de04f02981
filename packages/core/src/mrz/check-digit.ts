/**
 * ICAO 9303 part 3 §4.9 check digit: each character is given a value ('0'-'9' → 0-9,
 * 'A'-'Z' → 10-35, the filler '<' → 0), multiplied by the repeating weights 7, 3, 1; the
 * check digit is the sum modulo 10.
 *
 * Any other character (lower case, OCR noise) counts as 0 here, like a filler: callers that
 * care about invalid characters detect them separately (see `MRZ_CHARSET`).
 */
const WEIGHTS = [7, 3, 1] as const;

/** The characters allowed in an MRZ. */
export const MRZ_CHARSET = /^[A-Z0-9<]*$/;

export function mrzCharValue(ch: string): number {
  const code = ch.charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48; // 0-9
  if (code >= 65 && code <= 90) return code - 55; // A=10 … Z=35
  return 0; // '<' and anything else
}

export function mrzCheckDigit(s: string): number {
  let sum = 0;
  for (let i = 0; i < s.length; i++) {
    sum += mrzCharValue(s[i]!) * WEIGHTS[i % 3]!;
  }
  return sum % 10;
}

/** True when `digit` (a single character) is the check digit of `data`. */
export function checkDigitHolds(data: string, digit: string | undefined): boolean {
  return digit !== undefined && /^[0-9]$/.test(digit) && Number(digit) === mrzCheckDigit(data);
}
