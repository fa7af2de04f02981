import { mrzCheckDigit } from './check-digit.ts';
import { MRZ_LAYOUTS, type MrzFormat, nameWidth, type Span } from './layout.ts';
import { fitMrzName } from './names.ts';

export interface BuildMrzInput {
  format: MrzFormat;
  /** 1 or 2 characters; defaults to `P` (TD3) or `I` (TD1, TD2). */
  documentCode?: string;
  /** ICAO code, 1 to 3 letters (`NER`, `D`); padded with '<'. */
  issuingState: string;
  nationality: string;
  /** Up to 9 characters for TD3; longer TD1/TD2 numbers follow ICAO's long-number rule. */
  documentNumber: string;
  surname: string;
  givenNames: string;
  /** `YYMMDD` */
  dateOfBirth: string;
  sex: 'M' | 'F' | '<';
  /** `YYMMDD` */
  dateOfExpiry: string;
  /** TD3 personal number, TD2 optional data, TD1 line 1 optional data. */
  optionalData?: string;
  /** TD1 only: optional data of line 2 (11 characters at most). */
  optionalData2?: string;
}

const ALNUM = /^[A-Z0-9]*$/;
const MRZ_TEXT = /^[A-Z0-9<]*$/;

function field(value: string, width: number, what: string, pattern = MRZ_TEXT): string {
  if (value.length > width) throw new RangeError(`${what} is longer than ${width} characters: ${value}`);
  if (!pattern.test(value)) throw new RangeError(`${what} has characters an MRZ cannot hold: ${value}`);
  return value.padEnd(width, '<');
}

function put(lines: string[][], span: Span, text: string): void {
  const row = lines[span.line]!;
  for (let i = 0; i < span.end - span.start; i++) row[span.start + i] = text[i] ?? '<';
}

const get = (lines: string[][], span: Span): string => lines[span.line]!.slice(span.start, span.end).join('');

/**
 * Writes a TD1, TD2 or TD3 MRZ with correct check digits. Names are transliterated (ICAO 9303
 * part 3) and truncated to fit; a TD1/TD2 document number longer than 9 characters is split
 * per ICAO (9 characters, '<', the rest and its check digit in the optional data).
 * Throws a RangeError on input that cannot be written (a 10-character passport number,
 * a date that is not `YYMMDD`, optional data too long for what is left).
 */
export function buildMrz(input: BuildMrzInput): string[] {
  const { format } = input;
  const L = MRZ_LAYOUTS[format];
  const lines = Array.from({ length: L.lineCount }, () => Array<string>(L.lineLength).fill('<'));
  const up = (s: string | undefined) => (s ?? '').toUpperCase().replace(/\s+/g, '');

  const code = up(input.documentCode) || (format === 'TD3' ? 'P' : 'I');
  put(lines, L.documentCode, field(code, 2, 'document code'));
  put(lines, L.issuingState, field(up(input.issuingState), 3, 'issuing state'));
  put(lines, L.nationality, field(up(input.nationality), 3, 'nationality'));
  put(lines, L.name, fitMrzName(input.surname, input.givenNames, nameWidth(format)));

  for (const [what, value] of [
    ['date of birth', input.dateOfBirth],
    ['date of expiry', input.dateOfExpiry],
  ] as const) {
    if (!/^[0-9<]{6}$/.test(value)) throw new RangeError(`${what} must be YYMMDD: ${value}`);
  }
  put(lines, L.dateOfBirth, input.dateOfBirth);
  put(lines, L.dateOfBirthCheck, String(mrzCheckDigit(input.dateOfBirth)));
  put(lines, L.dateOfExpiry, input.dateOfExpiry);
  put(lines, L.dateOfExpiryCheck, String(mrzCheckDigit(input.dateOfExpiry)));
  if (!['M', 'F', '<'].includes(input.sex)) throw new RangeError(`sex must be M, F or <: ${input.sex}`);
  put(lines, L.sex, input.sex);

  const number = up(input.documentNumber).replace(/</g, '');
  if (number.length === 0 || !ALNUM.test(number)) throw new RangeError(`invalid document number: ${number}`);
  const optional = up(input.optionalData);
  const optionalWidth = L.optionalData.end - L.optionalData.start;
  const numberDigit = String(mrzCheckDigit(number));
  if (number.length <= 9) {
    put(lines, L.documentNumber, field(number, 9, 'document number'));
    put(lines, L.documentNumberCheck, numberDigit);
    put(lines, L.optionalData, field(optional, optionalWidth, 'optional data'));
  } else {
    if (!L.longNumbers)
      throw new RangeError(`a ${format} document number has at most 9 characters: ${number}`);
    put(lines, L.documentNumber, number.slice(0, 9));
    put(lines, L.documentNumberCheck, '<');
    // The rest of the number, its check digit, a filler, then any optional data.
    const tail = number.slice(9) + numberDigit + (optional ? `<${optional}` : '');
    put(lines, L.optionalData, field(tail, optionalWidth, 'document number continuation and optional data'));
  }
  if (L.optionalDataCheck) {
    // ICAO 9303-4: the check digit of an unused personal number may be '<'.
    const data = get(lines, L.optionalData);
    put(lines, L.optionalDataCheck, /^<*$/.test(data) ? '<' : String(mrzCheckDigit(data)));
  }
  if (L.optionalData2) {
    const width = L.optionalData2.end - L.optionalData2.start;
    put(lines, L.optionalData2, field(up(input.optionalData2), width, 'optional data 2'));
  } else if (input.optionalData2) {
    throw new RangeError(`${format} has no second optional data field`);
  }
  put(lines, L.composite, String(mrzCheckDigit(L.compositeData.map((s) => get(lines, s)).join(''))));
  return lines.map((l) => l.join(''));
}
