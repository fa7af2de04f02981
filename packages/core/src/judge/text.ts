import type { Explanation } from '../verification.ts';

/** Small helpers so that every explanation reads naturally in French and in English. */

const MONTHS_FR = [
  'janvier',
  'février',
  'mars',
  'avril',
  'mai',
  'juin',
  'juillet',
  'août',
  'septembre',
  'octobre',
  'novembre',
  'décembre',
];
const MONTHS_EN = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** `2026-03-15` → `15 mars 2026`. */
export function dateFr(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return `${d === 1 ? '1er' : d} ${MONTHS_FR[m - 1]} ${y}`;
}

/** `2026-03-15` → `15 March 2026`. */
export function dateEn(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return `${d} ${MONTHS_EN[m - 1]} ${y}`;
}

/** Two decimals, with the decimal comma in French. */
export function numFr(x: number): string {
  return x.toFixed(2).replace('.', ',');
}
export function numEn(x: number): string {
  return x.toFixed(2);
}

export function text(fr: string, en: string): Explanation {
  return { fr, en };
}

/** Joins a list: `a, b et c` / `a, b and c`. */
export function listFr(items: string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} et ${items[items.length - 1]}`;
}
export function listEn(items: string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** Capitalises the first letter (explanations are sentences). */
export function sentence(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Names of the document fields, as a person would say them. */
export const FIELD_LABELS: Record<string, { fr: string; en: string }> = {
  surname: { fr: 'nom', en: 'surname' },
  given_names: { fr: 'prénoms', en: 'given names' },
  date_of_birth: { fr: 'date de naissance', en: 'date of birth' },
  sex: { fr: 'sexe', en: 'sex' },
  nationality: { fr: 'nationalité', en: 'nationality' },
  place_of_birth: { fr: 'lieu de naissance', en: 'place of birth' },
  document_number: { fr: 'numéro du document', en: 'document number' },
  date_of_issue: { fr: 'date de délivrance', en: 'date of issue' },
  date_of_expiry: { fr: "date d'expiration", en: 'expiry date' },
  issuing_authority: { fr: 'autorité de délivrance', en: 'issuing authority' },
};

export function fieldLabel(field: string): { fr: string; en: string } {
  return FIELD_LABELS[field] ?? { fr: field, en: field };
}
