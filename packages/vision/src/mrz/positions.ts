import type { MrzFormat } from '@idv/core';

/**
 * What ICAO 9303 allows at every position of every MRZ line, as a string of allowed characters.
 * The format fixes it: letters in codes and names, digits in dates and check digits, the sex
 * among M/F/X/<, letters or digits in numbers and optional data; '<' wherever a field may be
 * short or empty. The decoder (constrained-decode.ts) reads each line under these sets.
 */

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';
const L = `${LETTERS}<`;
const D = `${DIGITS}<`;
const AN = `${LETTERS}${DIGITS}<`;
const SEX = 'MFX<';

/** Repeats `set` for `n` positions. */
function run(set: string, n: number): string[] {
  return Array.from({ length: n }, () => set);
}

/**
 * The document code's first character is fixed by the document's size and kind (ICAO 9303-4,
 * -5, -7): a TD3-size MRZ is a passport's (P) unless it is an MRV-A visa's (V, read under the
 * visa sets when the recogniser's own reading starts with V, model-read.ts lineSets); a TD1 or
 * TD2 card's is A, C or I (V again marking an MRV-B visa). Any other letter there is a misread:
 * a blurred P read as Y, J, D or F, an I as Y. No check digit covers the code, so letting the
 * decoder choose only among the allowed ones cannot make a failing MRZ pass. V is not offered
 * under the passport's sets: a reading starting with V is judged as a visa, without composite
 * or personal-number digit (cascade-stop.ts complete), so a misaligned crop decoded V there
 * would pass as a complete visa.
 */
const PASSPORT_FIRST = 'P';
/**
 * P stays allowed on cards though no card carries it: a passport's rows cut as a two-row block
 * must still read P there, since that P is what turns the block away as a card's (locate.ts
 * codeFitsFormat, applied to the decoded line when no page reading of the rows exists).
 */
const CARD_FIRST = 'ACIP';
const VISA_FIRST = 'V';
/**
 * The first letters a reading of each format may keep (locate.ts codeFitsFormat): the passport's
 * or an MRV-A visa's on a TD3, a card's or an MRV-B visa's on a TD2, a card's on a TD1. Unlike the
 * decoder's sets above, P is not among a card's: a kept card reading never starts with it.
 */
export const KEPT_FIRST_LETTERS: Record<MrzFormat, string> = {
  TD3: PASSPORT_FIRST + VISA_FIRST,
  TD2: CARD_FIRST.replace(PASSPORT_FIRST, '') + VISA_FIRST,
  TD1: CARD_FIRST.replace(PASSPORT_FIRST, ''),
};
/** The passport's code: P, then letter or filler, then the three-letter state. */
const CODE_AND_STATE = [PASSPORT_FIRST, L, L, L, L];

/**
 * Cards (TD1, TD2): ICAO 9303-5 and -6 leave the document code's second character to the issuer
 * except V ("V shall not be used"), which marks visas. A card's '<' there is read as V by
 * recognisers that see a chevron (the two differ by a stroke), and a V there would also send the
 * reading down the visa layout (model-read.ts lineSets); so V is not allowed.
 */
const CARD_CODE_SECOND = `${LETTERS.replace('V', '')}<`;
const CARD_CODE_AND_STATE = [CARD_FIRST, CARD_CODE_SECOND, L, L, L];

/**
 * The issuer's choice is not limited to letters: the MRZ character set has digits too, and cards
 * in circulation carry a digit there (a version or series after the C or I). With letters only,
 * the decoder turned such a digit into the nearest letter (1 into T), an MRZ read wrong on a card
 * printed right. A digit is allowed there only when the recogniser's own unconstrained reading of
 * the line puts one there (model-read.ts lineSets): allowing it on every card was measured to
 * change the constrained path through a blurred first line elsewhere (seed 13, a small turned
 * card's document number misread and then repaired; decisions.md), and most cards have a letter
 * or a filler there.
 */
const CARD_CODE_SECOND_OR_DIGIT = `${CARD_CODE_SECOND}${DIGITS}`;

/** `sets` of a card (TD1, TD2) with a digit allowed as the document code's second character. */
export function withCardCodeDigit(sets: string[][]): string[][] {
  const [first, ...rest] = sets;
  return [[first![0]!, CARD_CODE_SECOND_OR_DIGIT, ...first!.slice(2)], ...rest];
}

const TD3 = [
  [...CODE_AND_STATE, ...run(L, 39)],
  // number, check, nationality, birth, check, sex, expiry, check, personal number, check, composite
  [
    ...run(AN, 9),
    DIGITS,
    ...run(L, 3),
    ...run(D, 6),
    DIGITS,
    SEX,
    ...run(D, 6),
    DIGITS,
    ...run(AN, 14),
    D,
    DIGITS,
  ],
];

const TD2 = [
  [...CARD_CODE_AND_STATE, ...run(L, 31)],
  [...run(AN, 9), D, ...run(L, 3), ...run(D, 6), DIGITS, SEX, ...run(D, 6), DIGITS, ...run(AN, 7), DIGITS],
];

const TD1 = [
  // number's check digit may be '<' (a long number continues in the optional data)
  [...CARD_CODE_AND_STATE, ...run(AN, 9), D, ...run(AN, 15)],
  [...run(D, 6), DIGITS, SEX, ...run(D, 6), DIGITS, ...run(L, 3), ...run(AN, 11), DIGITS],
  run(L, 30),
];

/**
 * The French national identity card of 1988-2021 (2×36, read as TD2 by length) has its own
 * layout: IDFRA, surname, office; then issue year-month, office, number, check, given names,
 * birth date, check, sex, composite check.
 */
const FRA_LEGACY = [
  [...'IDFRA', ...run(L, 25), ...run(AN, 6)],
  [...run(AN, 12), DIGITS, ...run(L, 14), ...run(D, 6), DIGITS, SEX, DIGITS],
];

/**
 * Visas (ICAO 9303-7, MRV-A 2×44 and MRV-B 2×36) have no personal number and no composite
 * check digit: the second line's positions 29 to the end (16 on MRV-A, 8 on MRV-B) are optional
 * data at the issuer's discretion, any letter, digit or filler. Their first line's code is V then
 * a letter or filler, as the passport's, so the TD3 sets hold there (the card rule excludes V
 * only in the second position of cards).
 */
const VISA_OPTIONAL_START = 28;
function visa(sets: string[][]): string[][] {
  const second = sets[1]!.map((set, i) => (i >= VISA_OPTIONAL_START ? AN : set));
  const first = [VISA_FIRST, L, ...sets[0]!.slice(2)];
  return [first, second];
}

export function positionSets(format: MrzFormat, kind: 'icao' | 'fra-legacy' | 'visa' = 'icao'): string[][] {
  if (format === 'TD2' && kind === 'fra-legacy') return FRA_LEGACY;
  const sets = format === 'TD3' ? TD3 : format === 'TD2' ? TD2 : TD1;
  return kind === 'visa' && format !== 'TD1' ? visa(sets) : sets;
}
