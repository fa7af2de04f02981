import { parsePrintedDate } from './dates.ts';

/**
 * Dates told apart by their order when their labels were not read (labels are the smallest print
 * on a document: on a 320 px scan they are 3 px tall and read as "hewoa/com", while the dates
 * under them, twice as tall, are read right). A document that prints a date of birth, a date of
 * issue and a date of expiry prints them in that order in time, years apart: born first, the
 * document issued years later, valid for some years. Only a page showing exactly three dates
 * spaced that way is read so; with two dates (birth and expiry, or issue and expiry) the order
 * does not tell which is which, and nothing is assigned.
 */

export interface DatedLine {
  page: 0 | 1;
  line: number;
  iso: string;
}

export interface OrderedDates {
  date_of_birth: DatedLine;
  date_of_issue: DatedLine;
  date_of_expiry: DatedLine;
}

/**
 * A holder is at least this old when the document is issued: passports and cards of the
 * benchmark's countries are issued from 15-16 years of age (babies' passports exist, but then the
 * order is not used and the dates stay unassigned).
 */
const MIN_AGE_AT_ISSUE_YEARS = 10;
/** A document's validity: ICAO passports and West African cards run 5 to 10 years. */
const MIN_VALIDITY_YEARS = 1;
const MAX_VALIDITY_YEARS = 15;

const YEAR_MS = 365.25 * 24 * 3600 * 1000;

/** Every line that reads as one date (the whole line: a value, not a sentence holding one). */
export function datedLines(pages: { text: string }[][]): DatedLine[] {
  const out: DatedLine[] = [];
  for (const [page, lines] of pages.entries())
    for (const [line, l] of lines.entries()) {
      // A date line is short: "12.04.1987", "12 APR/AVR 1987". A longer line holds a label
      // too: the date is what follows its colon ("DLRELE:17/03/2023", the label illegible on a
      // small scan); a longer line without one is a sentence or a label run into its value.
      const text = l.text.replace(/\s+/g, '').length > 16 ? afterColon(l.text) : l.text;
      if (text === null || text.replace(/\s+/g, '').length > 16) continue;
      const iso = parsePrintedDate(text, 'any');
      if (iso) out.push({ page: page as 0 | 1, line, iso });
    }
  return out;
}

/** The text after a line's last colon, or null when it has none. */
function afterColon(text: string): string | null {
  const at = text.lastIndexOf(':');
  return at < 0 ? null : text.slice(at + 1);
}

/** The three dates by their order in time, or null when the page does not show exactly three spaced so. */
export function orderDates(dated: DatedLine[]): OrderedDates | null {
  const distinct = [...new Map(dated.map((d) => [d.iso, d])).values()];
  if (distinct.length !== 3) return null;
  const [birth, issue, expiry] = distinct.sort((a, b) => a.iso.localeCompare(b.iso)) as [
    DatedLine,
    DatedLine,
    DatedLine,
  ];
  const years = (a: DatedLine, b: DatedLine) => (Date.parse(b.iso) - Date.parse(a.iso)) / YEAR_MS;
  if (years(birth, issue) < MIN_AGE_AT_ISSUE_YEARS) return null;
  const validity = years(issue, expiry);
  if (validity < MIN_VALIDITY_YEARS || validity > MAX_VALIDITY_YEARS) return null;
  return { date_of_birth: birth, date_of_issue: issue, date_of_expiry: expiry };
}
