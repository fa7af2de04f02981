import type { PrintedFields } from '@idv/core';

/**
 * The printed labels of each field in French and English, folded (upper case, no accents). Both
 * the exact label matching (fields.ts) and the loose one (label-match.ts) read this one table.
 */

export type Field = keyof PrintedFields;

/** Labels per field, folded. Longer, more specific labels first. */
export const LABELS: Record<Field, string[]> = {
  surname: ['NOM DE FAMILLE', 'SURNAME', 'LAST NAME', 'NOM'],
  given_names: ['GIVEN NAMES', 'GIVEN NAME', 'FIRST NAMES', 'FIRST NAME', 'PRENOM(S)', 'PRENOMS', 'PRENOM'],
  date_of_birth: [
    'DATE DE NAISSANCE',
    'DATE OF BIRTH',
    'BIRTH DATE',
    'NE LE',
    'NEE LE',
    // Its space optional (findLabel): "NE(E)LE" and "NE(E) LE".
    'NE(E) LE',
  ],
  sex: ['SEXE', 'SEX'],
  nationality: ['NATIONALITE', 'NATIONALITY'],
  place_of_birth: ['LIEU DE NAISSANCE', 'PLACE OF BIRTH'],
  document_number: [
    'NO DU PASSEPORT',
    'PASSPORT NUMBER',
    'PASSPORT NO',
    'NO DE PASSEPORT',
    'N DE PASSEPORT',
    'DOCUMENT NO',
    'NO DU DOCUMENT',
    'NUMERO DE LA CARTE',
    'NO DE LA CARTE',
    'N DE LA CARTE',
    'CARD NUMBER',
    'ID NUMBER',
    'NO CNI',
    'CARTE NO',
    'CARTE N',
    'CARD NO',
    'NUMERO',
    'NNI',
  ],
  date_of_issue: [
    'DATE DE DELIVRANCE',
    'DATE OF ISSUE',
    'ISSUE DATE',
    'ISSUED ON',
    'DELIVREE LE',
    'DELIVRE LE',
    'FAIT LE',
  ],
  date_of_expiry: [
    "DATE D'EXPIRATION",
    'DATE DEXPIRATION',
    'DATE OF EXPIRY',
    'EXPIRY DATE',
    'VALID UNTIL',
    "VALABLE JUSQU'AU",
    'EXPIRE LE',
    'EXPIRATION',
  ],
  issuing_authority: ['AUTORITE DE DELIVRANCE', 'ISSUING AUTHORITY', 'AUTHORITY', 'AUTORITE', 'DELIVRE PAR'],
};
