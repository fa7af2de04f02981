import { fold } from './text.ts';

/**
 * Printed dates as found on West African and ICAO documents: `12.04.1987`, `12/04/1987`,
 * `12-04-1987`, `12 AVRIL 1987`, `12 APR 1987`, bilingual `12 APR/AVR 87`, compact `12041987`.
 * Returns ISO `YYYY-MM-DD`, or null when no valid date is found.
 */

const MONTHS: Record<string, number> = {
  JAN: 1,
  JANV: 1,
  JANVIER: 1,
  JANUARY: 1,
  FEB: 2,
  FEV: 2,
  FEVR: 2,
  FEVRIER: 2,
  FEBRUARY: 2,
  MAR: 3,
  MARS: 3,
  MARCH: 3,
  APR: 4,
  AVR: 4,
  AVRIL: 4,
  APRIL: 4,
  MAY: 5,
  MAI: 5,
  JUN: 6,
  JUIN: 6,
  JUNE: 6,
  JUL: 7,
  JUIL: 7,
  JUILLET: 7,
  JULY: 7,
  AUG: 8,
  AOU: 8,
  AOUT: 8,
  AUGUST: 8,
  SEP: 9,
  SEPT: 9,
  SEPTEMBRE: 9,
  SEPTEMBER: 9,
  OCT: 10,
  OCTOBRE: 10,
  OCTOBER: 10,
  NOV: 11,
  NOVEMBRE: 11,
  NOVEMBER: 11,
  DEC: 12,
  DECEMBRE: 12,
  DECEMBER: 12,
};

export type Century = 'past' | 'future' | 'any';

function iso(y: number, m: number, d: number): string | null {
  if (m < 1 || m > 12 || d < 1 || d > 31) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Two-digit years: birth dates are in the past; issue/expiry dates within 20 years of today. */
function fullYear(yy: number, century: Century, now: Date): number {
  const current = now.getUTCFullYear();
  if (century === 'past') return 2000 + yy <= current ? 2000 + yy : 1900 + yy;
  return 2000 + yy <= current + 20 ? 2000 + yy : 1900 + yy;
}

/** Digits that OCR commonly reads as letters inside a date. */
function digitsOnly(s: string): string {
  return s.replace(/[OQD]/g, '0').replace(/[IL|]/g, '1').replace(/S/g, '5').replace(/B/g, '8');
}

/** Letters that OCR commonly reads as digits inside a month name (the inverse of digitsOnly). */
function lettersOnly(s: string): string {
  return s.replace(/0/g, 'O').replace(/1/g, 'I').replace(/5/g, 'S').replace(/8/g, 'B');
}

export function parsePrintedDate(text: string, century: Century = 'any', now = new Date()): string | null {
  const t = fold(text);
  // Numeric: d.m.y with . / - or spaces as separators.
  const numeric = /(\d{1,2})\s*[./-]\s*(\d{1,2})\s*[./-]\s*(\d{4}|\d{2})(?!\d)/.exec(digitsOnly(t));
  if (numeric) {
    const [, d, m, y] = numeric;
    const year = y!.length === 4 ? Number(y) : fullYear(Number(y), century, now);
    const r = iso(year, Number(m), Number(d));
    if (r) return r;
  }
  // Month names: "12 AVRIL 1987", "12 APR/AVR 87", "12 AUGUST/AOUT 74".
  const named = /(\d{1,2})\s*([A-Z]{3,9})(?:\s*\/\s*[A-Z]{3,9})?\.?\s*(\d{4}|\d{2})(?!\d)/.exec(t);
  if (named) {
    const [, d, mon, y] = named;
    const m = MONTHS[mon!];
    if (m) {
      const year = y!.length === 4 ? Number(y) : fullYear(Number(y), century, now);
      const r = iso(year, m, Number(d));
      if (r) return r;
    }
  }
  // A month name with a letter read as a digit ("07 0CT 2007": O read as 0, "1" for I): the
  // month word is taken letters-only, and must then be a month name (a plain number is not).
  const confused = /(\d{1,2})\s*([A-Z0-9]{3,9}?)(?:\s*\/\s*[A-Z0-9]{3,9}?)?\.?\s*(\d{4}|\d{2})(?!\d)/.exec(t);
  if (confused && /[A-Z].*[A-Z]/.test(confused[2]!)) {
    const [, d, mon, y] = confused;
    const m = MONTHS[lettersOnly(mon!)];
    if (m) {
      const year = y!.length === 4 ? Number(y) : fullYear(Number(y), century, now);
      const r = iso(year, m, Number(d));
      if (r) return r;
    }
  }
  // Compact ddmmyyyy, or with one of its two separators lost ("0703.2020", "07.032020"): the
  // day and month keep two digits each, so the split is not ambiguous.
  const compact = /(?<!\d)(\d{2})[./-]?(\d{2})[./-]?(\d{4})(?!\d)/.exec(t.replace(/\s+/g, ''));
  if (compact) {
    const [, d, m, y] = compact;
    return iso(Number(y), Number(m), Number(d));
  }
  return null;
}
