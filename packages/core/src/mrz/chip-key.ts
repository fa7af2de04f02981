import type { ParsedMrz } from './parse.ts';

/** What an app needs to open the document chip with BAC/PACE (ICAO 9303 part 11). */
export interface ChipAccessKey {
  /** Full document number without fillers; a long TD1/TD2 number is given whole. */
  document_number: string;
  /** `YYMMDD` as printed in the MRZ. */
  date_of_birth: string;
  /** `YYMMDD` as printed in the MRZ. */
  date_of_expiry: string;
}

/**
 * The chip access key, only when every check digit of the MRZ holds (spec: otherwise `key` is
 * null). ICAO 9303 part 11 derives the key from the document number, the date of birth and
 * the date of expiry, each followed by its check digit; for a number longer than 9 characters
 * it uses the complete number (the part in the optional data included) with the check digit
 * of the whole number, which is why the full number is returned. The reading app pads a number
 * shorter than 9 characters with '<' as part 11 requires.
 */
export function chipAccessKey(mrz: ParsedMrz): ChipAccessKey | null {
  if (!mrz.valid || !/^[0-9]{6}$/.test(mrz.rawDateOfBirth) || !/^[0-9]{6}$/.test(mrz.rawDateOfExpiry)) {
    return null;
  }
  return {
    document_number: mrz.documentNumber,
    date_of_birth: mrz.rawDateOfBirth,
    date_of_expiry: mrz.rawDateOfExpiry,
  };
}
