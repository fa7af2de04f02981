/**
 * Invented MRZs, one per format, for one made-up holder (ADJOVI AFI MAWUENA, Togo): the same
 * shapes as the ICAO Doc 9303 specimens (a TD3 with a personal number, a TD2, a TD1, a TD1
 * whose 12-character document number continues in the optional data), but no published or
 * fixture identity. Every check digit was computed outside this code base (weights 7-3-1 by
 * hand), so the parser and the builder are checked against an independent answer.
 */
export const SPECIMEN_TD3 = [
  'P<TGOADJOVI<<AFI<MAWUENA<<<<<<<<<<<<<<<<<<<<',
  'TK47025184TGO7803266F1409231KX3095127<<<<<42',
];
export const SPECIMEN_TD2 = ['I<TGOADJOVI<<AFI<MAWUENA<<<<<<<<<<<<', 'TD60938428TGO7803266F1409231<<<<<<<6'];
export const SPECIMEN_TD1 = [
  'I<TGOTD60938428<<<<<<<<<<<<<<<',
  '7803266F1409231TGO<<<<<<<<<<<6',
  'ADJOVI<<AFI<MAWUENA<<<<<<<<<<<',
];
export const SPECIMEN_TD1_LONG_NUMBER = [
  'I<TGOTD6093842<5173<<<<<<<<<<<',
  '7803266F1409231TGO<<<<<<<<<<<4',
  'ADJOVI<<AFI<MAWUENA<<<<<<<<<<<',
];

/** A fixed reference date so century decisions do not depend on when the tests run. */
export const NOW = new Date('2025-06-01T12:00:00Z');

/** Replaces the character at (line, index). */
export function mutate(lines: readonly string[], line: number, index: number, ch: string): string[] {
  return lines.map((l, i) => (i === line ? l.slice(0, index) + ch + l.slice(index + 1) : l));
}

/** A different digit at a check position (keeps the character class, breaks the digit). */
export function otherDigit(ch: string): string {
  return String((Number(ch) + 1) % 10);
}
