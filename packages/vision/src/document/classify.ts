import type { DocumentLayout, DocumentType } from '@idv/core';
import type { MrzReading } from '../mrz/read.ts';
import type { PageReading } from '../ocr/page.ts';
import { fold, fuzzyContains, tolerance } from '../viz/text.ts';

/**
 * Document type, layout and country from what was read: the MRZ when there is one (its format
 * and document code say passport or card, its issuing state the country), otherwise the wording
 * and layout of the page (Niger's older paper card has no MRZ).
 */

export interface Classification {
  type: DocumentType;
  layout: DocumentLayout;
  country: string | null;
}

/** Countries recognised from their printed name (the spec's Sahel states). */
const COUNTRY_WORDING: [string, string][] = [
  ['REPUBLIQUE DU NIGER', 'NER'],
  ['REPUBLIC OF NIGER', 'NER'],
  ['REPUBLIQUE DU MALI', 'MLI'],
  ['REPUBLIC OF MALI', 'MLI'],
  ['BURKINA FASO', 'BFA'],
];

const PASSPORT_WORDS = ['PASSEPORT', 'PASSPORT'];
const CARD_WORDS = ["CARTE D'IDENTITE", 'CARTE NATIONALE', 'IDENTITY CARD', 'IDENTITE'];
/** Field labels of a data page; a cover or a payment card has none of them. */
const FIELD_LABELS = [
  'NOM',
  'PRENOM',
  'SURNAME',
  'GIVEN NAME',
  'NAISSANCE',
  'BIRTH',
  'SEXE',
  'NATIONALIT',
  'PROFESSION',
];

function pageText(page: PageReading | undefined): string {
  return page ? page.lines.map((l) => fold(l.text)).join(' \n ') : '';
}

function has(text: string, word: string): boolean {
  return fuzzyContains(text, word, tolerance(word));
}

export function countryFromWording(text: string): string | null {
  for (const [words, code] of COUNTRY_WORDING) if (has(text, words)) return code;
  if (/\bNIGER\b/.test(text)) return 'NER';
  if (/\bMALI\b/.test(text)) return 'MLI';
  return null;
}

export function classifyDocument(input: {
  mrz: MrzReading | null;
  front: PageReading;
  back?: PageReading;
  /** Front image size, to tell a portrait-format page (the Niger paper card is taller than wide). */
  frontSize?: { width: number; height: number };
  requested?: 'passport' | 'cni';
}): Classification {
  const { mrz } = input;
  const text = `${pageText(input.front)} \n ${pageText(input.back)}`;
  const wordingCountry = countryFromWording(text);
  if (mrz) {
    const code = mrz.parsed.documentCode;
    const country = mrz.parsed.issuingState.replace(/</g, '') || wordingCountry;
    if (mrz.format === 'TD3') {
      return { type: code.startsWith('P') ? 'passport' : 'unknown', layout: 'td3', country };
    }
    if (mrz.format === 'TD1') {
      // I, A, C: identity and residence cards.
      return { type: /^[IAC]/.test(code) ? 'cni' : 'unknown', layout: 'td1', country };
    }
    const type = code.startsWith('P') ? 'passport' : /^[IAC]/.test(code) ? 'cni' : 'unknown';
    return { type, layout: 'td2', country };
  }
  const labels = FIELD_LABELS.filter((l) => has(text, l)).length;
  if (isNigerPaperCard(input, text)) return { type: 'cni', layout: 'niger_paper_card', country: 'NER' };
  // Without an MRZ, only a page with field labels is a document data page (a passport cover
  // says PASSEPORT too, and a card front says its name).
  if (labels >= 2) {
    if (PASSPORT_WORDS.some((w) => has(text, w)))
      return { type: 'passport', layout: 'unknown', country: wordingCountry };
    if (CARD_WORDS.some((w) => has(text, w)))
      return { type: 'cni', layout: 'unknown', country: wordingCountry };
  }
  return { type: 'unknown', layout: 'unknown', country: wordingCountry };
}

/**
 * Niger's older paper identity card (spec): a single page, taller than wide, no MRZ, only an
 * issue date, the number field on the right; recognised by its wording (Niger, identity card)
 * and that shape.
 */
function isNigerPaperCard(
  input: { front: PageReading; back?: PageReading; frontSize?: { width: number; height: number } },
  text: string,
): boolean {
  if (input.back && input.back.lines.length > 3) return false;
  const niger = has(text, 'NIGER');
  const card = CARD_WORDS.some((w) => has(text, w));
  if (!niger || !card) return false;
  // No expiry date is printed on it; an expiry label means another card.
  if (has(text, 'EXPIRATION') || has(text, 'EXPIRY') || has(text, "DATE D'EXPIR")) return false;
  // Its shape, or failing that (the text block of a page whose portrait sits beside the fields is
  // about square) its issue date on the front: a card front of the newer model has its issue
  // date on the back, and a passport page prints an expiry date.
  return pageIsTall(input.front, input.frontSize) || ISSUE_WORDS.some((w) => has(pageText(input.front), w));
}

/** Issue-date labels of the paper card ("Fait à Niamey le ...", "Délivrée le ..."). */
const ISSUE_WORDS = ['FAIT LE', 'DELIVREE LE', 'DELIVRE LE', 'DATE DE DELIVRANCE'];

/** Whether the text block of the page is taller than wide (in the upright page frame). */
function pageIsTall(page: PageReading, size?: { width: number; height: number }): boolean {
  if (page.lines.length >= 4) {
    const xs = page.lines.flatMap((l) => [l.left, l.left + l.length]);
    const ys = page.lines.flatMap((l) => [l.y - l.height / 2, l.y + l.height / 2]);
    const w = Math.max(...xs) - Math.min(...xs);
    const h = Math.max(...ys) - Math.min(...ys);
    return h > w;
  }
  if (!size) return false;
  const upright = Math.abs(Math.sin(page.angle)) > 0.7 ? size.width > size.height : size.height > size.width;
  return upright;
}
