import { isIsoDate } from '../dates.ts';
import { namesMatch } from '../mrz/names.ts';
import type { ParsedMrz } from '../mrz/parse.ts';
import type { Observations } from '../observations.ts';
import type { DocumentFields } from '../verification.ts';
import { normaliseSex } from './consistency.ts';

const clean = (s: string | null | undefined): string | null => {
  const t = s?.replace(/\s+/g, ' ').trim();
  return t ? t : null;
};
const isoOrNull = (s: string | null | undefined): string | null => (isIsoDate(s) ? s : null);

/**
 * A name: the MRZ is authoritative when valid, but its form is transliterated and may be cut
 * (FATI for FATIMATA ZAHRA); when the printed name is the same name (per `namesMatch`), the
 * printed one is returned, with its accents and in full.
 */
function nameField(printed: string | null, fromMrz: string, mrz: ParsedMrz): string | null {
  const p = clean(printed);
  if (!fromMrz) return p;
  if (p && namesMatch(p, fromMrz, { truncated: mrz.nameMayBeTruncated })) return p;
  return fromMrz;
}

/**
 * The 10 public fields: MRZ values when the MRZ is valid (every check digit holds), else the
 * printed ones; dates as ISO `YYYY-MM-DD`, null when absent or not a real date.
 */
export function documentFieldsOf(obs: Observations, mrz: ParsedMrz | null): DocumentFields {
  const p = obs.printed;
  const printedSex = clean(p.sex);
  const base: DocumentFields = {
    surname: clean(p.surname),
    given_names: clean(p.given_names),
    date_of_birth: isoOrNull(p.date_of_birth),
    sex: normaliseSex(printedSex) ?? printedSex,
    nationality: clean(p.nationality),
    place_of_birth: clean(p.place_of_birth),
    document_number: clean(p.document_number),
    date_of_issue: isoOrNull(p.date_of_issue),
    date_of_expiry: isoOrNull(p.date_of_expiry),
    issuing_authority: clean(p.issuing_authority),
  };
  if (mrz === null || !mrz.valid) return base;
  return {
    ...base,
    surname: nameField(p.surname, mrz.surname, mrz),
    given_names: nameField(p.given_names, mrz.givenNames, mrz),
    date_of_birth: mrz.dateOfBirth ?? base.date_of_birth,
    sex: mrz.sex ?? base.sex,
    nationality: mrz.nationality,
    document_number: mrz.documentNumber || base.document_number,
    date_of_expiry: mrz.dateOfExpiry ?? base.date_of_expiry,
  };
}
