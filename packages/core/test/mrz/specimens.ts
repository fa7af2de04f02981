/**
 * ICAO Doc 9303 specimen MRZs (the fictitious state Utopia, holder ERIKSSON ANNA MARIA), as
 * published in the standard (parts 4, 5 and 6), plus the `mrz` library's README variant of the
 * TD1 specimen with a 12-character document number.
 */
export const ICAO_TD3 = [
  'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
  'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
];
export const ICAO_TD2 = ['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6'];
export const ICAO_TD1 = [
  'I<UTOD231458907<<<<<<<<<<<<<<<',
  '7408122F1204159UTO<<<<<<<<<<<6',
  'ERIKSSON<<ANNA<MARIA<<<<<<<<<<',
];
export const ICAO_TD1_LONG_NUMBER = [
  'I<UTOD23145890<1233<<<<<<<<<<<',
  '7408122F1204159UTO<<<<<<<<<<<2',
  'ERIKSSON<<ANNA<MARIA<<<<<<<<<<',
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
