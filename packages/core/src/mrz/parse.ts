import { mrzBirthDateToIso, mrzExpiryDateToIso } from '../dates.ts';
import { checkDigitHolds, MRZ_CHARSET, mrzCheckDigit } from './check-digit.ts';
import { MRZ_LAYOUTS, type MrzFormat, type Span } from './layout.ts';
import { splitMrzName } from './names.ts';

export type { MrzFormat } from './layout.ts';

export type MrzCheckName =
  | 'document_number'
  | 'date_of_birth'
  | 'date_of_expiry'
  | 'optional_data'
  | 'composite';

/** One recomputed check digit and where it sits, so a reader can correct the characters it covers. */
export interface MrzDigitCheck {
  name: MrzCheckName;
  valid: boolean;
  /** 0-based index of the line holding the check digit. */
  line: number;
  /** Data range on that line, `end` exclusive. For a long document number it spans the
   * 9 first characters, the '<' and the continuation; for a TD1 composite, line 2's part. */
  start: number;
  end: number;
  /** Position of the check digit on that line. */
  checkAt: number;
  /** Every range the digit covers, on any line, in order (the TD1 composite spans two lines). */
  ranges: Span[];
  /** The digit the data calls for. */
  expected: number;
  /** The character found at `checkAt`. */
  found: string;
}

export interface ParsedMrz {
  format: MrzFormat;
  /** The lines as parsed: whitespace removed, cut or padded with '<' to the format's length. */
  lines: string[];
  documentCode: string;
  /** Three characters as in the MRZ, fillers kept (`NER`, `D<<`). */
  issuingState: string;
  nationality: string;
  /** Full number, long TD1/TD2 numbers reassembled (ICAO 9303 long document number rule), fillers removed. */
  documentNumber: string;
  surname: string;
  givenNames: string;
  /** True when the name field is full, so the names may have been cut to fit. */
  nameMayBeTruncated: boolean;
  dateOfBirth: string | null;
  dateOfExpiry: string | null;
  rawDateOfBirth: string;
  rawDateOfExpiry: string;
  sex: 'M' | 'F' | 'X' | null;
  /** TD3 personal number; TD1 line 1 / TD2 optional data after any long-number continuation. */
  optionalData: string;
  /** TD1 only: the optional data of line 2 ('' otherwise). */
  optionalData2: string;
  checks: MrzDigitCheck[];
  /** Every check digit holds, only A-Z0-9< characters, every line has the right length, and
   * every field has its character class (`fieldsWellFormed`). */
  valid: boolean;
  invalidCharacters: boolean;
  lengthsValid: boolean;
  /** Dates are digits (or '<'), sex is M, F, X or '<', state codes are letters. */
  fieldsWellFormed: boolean;
}

/**
 * Line lengths accepted by `detectMrzFormat` around the nominal ones. An OCR that drops or
 * doubles a filler still yields a parse (with `valid` false) instead of "unknown format",
 * so the reader can be told which field is wrong.
 */
export const MRZ_LENGTH_TOLERANCE = 2;

/** Removes whitespace inside lines and drops empty lines. */
export function normaliseMrzLines(lines: readonly string[]): string[] {
  return lines.map((l) => l.replace(/\s+/g, '')).filter((l) => l.length > 0);
}

/** TD1 (3 × 30), TD2 (2 × 36) or TD3 (2 × 44) from the number of lines and their lengths. */
export function detectMrzFormat(lines: readonly string[]): MrzFormat | null {
  if (!Array.isArray(lines) || lines.some((l) => typeof l !== 'string')) return null;
  const norm = normaliseMrzLines(lines);
  const fits = (length: number) => norm.every((l) => Math.abs(l.length - length) <= MRZ_LENGTH_TOLERANCE);
  if (norm.length === 3 && fits(MRZ_LAYOUTS.TD1.lineLength)) return 'TD1';
  if (norm.length === 2 && fits(MRZ_LAYOUTS.TD3.lineLength)) return 'TD3';
  if (norm.length === 2 && fits(MRZ_LAYOUTS.TD2.lineLength)) return 'TD2';
  return null;
}

const read = (lines: string[], span: Span): string => lines[span.line]!.slice(span.start, span.end);
const stripFillers = (s: string): string => s.replace(/^<+|<+$/g, '');

function digitCheck(
  lines: string[],
  name: MrzCheckName,
  ranges: Span[],
  checkAt: Span,
  valid?: boolean,
): MrzDigitCheck {
  const data = ranges.map((r) => read(lines, r)).join('');
  const found = read(lines, checkAt);
  const onLine = ranges.filter((r) => r.line === checkAt.line);
  return {
    name,
    valid: valid ?? checkDigitHolds(data, found),
    line: checkAt.line,
    start: Math.min(...onLine.map((r) => r.start)),
    end: Math.max(...onLine.map((r) => r.end)),
    checkAt: checkAt.start,
    ranges,
    expected: mrzCheckDigit(data),
    found,
  };
}

interface NumberReading {
  number: string;
  check: MrzDigitCheck;
  /** Where the optional data really starts (after a long number's continuation). */
  optionalStart: number;
}

/** A document number field: one or more letters or digits, then fillers only. */
const NUMBER_SHAPE = /^[A-Z0-9]+<*$/;

/**
 * The document number, with ICAO 9303's rule for numbers longer than 9 characters (TD1 and
 * TD2): the 9 first characters in the number field, '<' in place of its check digit, the rest
 * at the start of the optional data field, then the check digit of the whole number, then '<'.
 * ICAO computes that check digit on the number without the '<'; some issuers include the '<'
 * (as the `mrz` library notes), so both are accepted.
 */
function readDocumentNumber(lines: string[], format: MrzFormat): NumberReading {
  const L = MRZ_LAYOUTS[format];
  const head = read(lines, L.documentNumber);
  const checkChar = read(lines, L.documentNumberCheck);
  const opt = read(lines, L.optionalData);
  const isLong = L.longNumbers && checkChar === '<' && !head.includes('<') && /^[A-Z0-9]/.test(opt);
  if (!isLong) {
    return {
      number: head.replace(/</g, ''),
      check: digitCheck(lines, 'document_number', [L.documentNumber], L.documentNumberCheck),
      optionalStart: L.optionalData.start,
    };
  }
  const run = /^[A-Z0-9]+/.exec(opt)![0];
  const continuation = run.slice(0, -1);
  const checkAt: Span = {
    line: L.optionalData.line,
    start: L.optionalData.start + run.length - 1,
    end: L.optionalData.start + run.length,
  };
  const digit = run.slice(-1);
  const valid =
    checkDigitHolds(head + continuation, digit) || checkDigitHolds(`${head}<${continuation}`, digit);
  const check = digitCheck(
    lines,
    'document_number',
    [L.documentNumber, { line: checkAt.line, start: L.optionalData.start, end: checkAt.start }],
    checkAt,
    valid,
  );
  // The '<' at the usual check position belongs to the number's range on that line.
  check.start = L.documentNumber.start;
  check.expected = mrzCheckDigit(head + continuation);
  return { number: head + continuation, check, optionalStart: checkAt.end };
}

function readSex(ch: string): ParsedMrz['sex'] {
  if (ch === 'M' || ch === 'F' || ch === 'X') return ch;
  if (ch === '<') return 'X';
  return null;
}

export interface ParseMrzOptions {
  /** Reference date for the century of two-digit years; defaults to the current time. */
  now?: Date;
}

/**
 * Parses a TD1, TD2 or TD3 MRZ and recomputes every check digit. Returns null when the lines
 * do not have one of these shapes; never throws.
 */
export function parseMrz(lines: readonly string[], options: ParseMrzOptions = {}): ParsedMrz | null {
  try {
    return parseUnsafe(lines, options.now ?? new Date());
  } catch {
    return null;
  }
}

function parseUnsafe(input: readonly string[], now: Date): ParsedMrz | null {
  const format = detectMrzFormat(input);
  if (format === null) return null;
  const L = MRZ_LAYOUTS[format];
  const raw = normaliseMrzLines(input);
  const lengthsValid = raw.every((l) => l.length === L.lineLength);
  const lines = raw.map((l) => l.slice(0, L.lineLength).padEnd(L.lineLength, '<'));
  const invalidCharacters = raw.some((l) => !MRZ_CHARSET.test(l));

  const { number, check: numberCheck, optionalStart } = readDocumentNumber(lines, format);
  const checks: MrzDigitCheck[] = [
    numberCheck,
    digitCheck(lines, 'date_of_birth', [L.dateOfBirth], L.dateOfBirthCheck),
    digitCheck(lines, 'date_of_expiry', [L.dateOfExpiry], L.dateOfExpiryCheck),
  ];
  if (L.optionalDataCheck) {
    const c = digitCheck(lines, 'optional_data', [L.optionalData], L.optionalDataCheck);
    // ICAO 9303-4: an unused personal number may carry '<' or '0' as its check digit.
    if (/^<*$/.test(read(lines, L.optionalData)) && (c.found === '<' || c.found === '0')) c.valid = true;
    checks.push(c);
  }
  checks.push(digitCheck(lines, 'composite', L.compositeData, L.composite));
  // Field classes the check digits cannot see: a letter worth 10 more than a digit (G for 6)
  // leaves every digit intact, and the sex and nationality are covered by no digit at all.
  // The document number's shape too (ICAO 9303: its characters from the left, fillers after
  // them): a filler followed by a letter or digit inside it is no number, but a row read from
  // the crop of another (a passport's second line starting `P<CIV…`), which a check-digit
  // repair can make pass.
  const fieldsWellFormed =
    NUMBER_SHAPE.test(read(lines, L.documentNumber)) &&
    /^[0-9<]{6}$/.test(read(lines, L.dateOfBirth)) &&
    /^[0-9<]{6}$/.test(read(lines, L.dateOfExpiry)) &&
    /^[MFX<]$/.test(read(lines, L.sex)) &&
    /^[A-Z<]{3}$/.test(read(lines, L.issuingState)) &&
    /^[A-Z<]{3}$/.test(read(lines, L.nationality));

  const nameField = read(lines, L.name);
  const { surname, givenNames } = splitMrzName(nameField);
  const rawDateOfBirth = read(lines, L.dateOfBirth);
  const rawDateOfExpiry = read(lines, L.dateOfExpiry);
  const optional = L.optionalData;
  const optionalData = stripFillers(lines[optional.line]!.slice(optionalStart, optional.end));

  return {
    format,
    lines,
    documentCode: stripFillers(read(lines, L.documentCode)),
    issuingState: read(lines, L.issuingState),
    nationality: read(lines, L.nationality),
    documentNumber: number,
    surname,
    givenNames,
    nameMayBeTruncated: !nameField.endsWith('<'),
    dateOfBirth: mrzBirthDateToIso(rawDateOfBirth, now),
    dateOfExpiry: mrzExpiryDateToIso(rawDateOfExpiry, now),
    rawDateOfBirth,
    rawDateOfExpiry,
    sex: readSex(read(lines, L.sex)),
    optionalData,
    optionalData2: L.optionalData2 ? stripFillers(read(lines, L.optionalData2)) : '',
    checks,
    valid: lengthsValid && !invalidCharacters && fieldsWellFormed && checks.every((c) => c.valid),
    invalidCharacters,
    lengthsValid,
    fieldsWellFormed,
  };
}
