import { isIsoDate, isoToMrzDate } from '../dates.ts';
import { namesMatch } from '../mrz/names.ts';
import type { ParsedMrz } from '../mrz/parse.ts';
import type { PrintedFields } from '../observations.ts';
import type { CheckOutcome, JudgeContext } from './context.ts';
import { fieldLabel, listEn, listFr, sentence, text } from './text.ts';

/** The printed fields compared with the MRZ (spec, viz_mrz_consistency). */
export const COMPARED_FIELDS = [
  'surname',
  'given_names',
  'date_of_birth',
  'sex',
  'document_number',
  'date_of_expiry',
] as const;
export type ComparedField = (typeof COMPARED_FIELDS)[number];

/** A difference in one of these is a grave failure (DESIGN.md: surname, given names, date of birth). */
export const GRAVE_FIELDS: ReadonlySet<ComparedField> = new Set(['surname', 'given_names', 'date_of_birth']);

export type Comparison = 'agree' | 'differ' | 'unreadable';

/** Printed sex in any usual wording (French or English) → M, F or X; null when not recognised. */
export function normaliseSex(value: string | null): 'M' | 'F' | 'X' | null {
  if (!value) return null;
  const v = value.normalize('NFD').replace(/\p{M}/gu, '').trim().toUpperCase();
  if (['M', 'H', 'MALE', 'MASCULIN', 'HOMME'].includes(v)) return 'M';
  if (['F', 'FEMALE', 'FEMININ', 'FEMME'].includes(v)) return 'F';
  if (['X', '<'].includes(v)) return 'X';
  return null;
}

const numberKey = (s: string) => s.toUpperCase().replace(/[\s<\-./]/g, '');

/** Compares one printed field with its MRZ counterpart. */
export function compareField(field: ComparedField, printed: PrintedFields, mrz: ParsedMrz): Comparison {
  switch (field) {
    case 'surname':
    case 'given_names': {
      const p = printed[field]?.trim();
      const m = field === 'surname' ? mrz.surname : mrz.givenNames;
      if (!p) return 'unreadable';
      // An MRZ without given names is compared too: a printed given name then differs,
      // unless the name field was full and they were cut off.
      if (field === 'surname' && !m) return 'unreadable';
      return namesMatch(p, m, { truncated: mrz.nameMayBeTruncated }) ? 'agree' : 'differ';
    }
    case 'date_of_birth':
    case 'date_of_expiry': {
      const p = printed[field];
      const raw = field === 'date_of_birth' ? mrz.rawDateOfBirth : mrz.rawDateOfExpiry;
      if (!isIsoDate(p) || !/^\d{6}$/.test(raw)) return 'unreadable';
      // Compare as printed in the MRZ (YYMMDD) so the century guess plays no part.
      return isoToMrzDate(p) === raw ? 'agree' : 'differ';
    }
    case 'sex': {
      const p = normaliseSex(printed.sex);
      if (p === null || mrz.sex === null) return 'unreadable';
      return p === mrz.sex ? 'agree' : 'differ';
    }
    case 'document_number': {
      const p = printed.document_number;
      if (!p || !mrz.documentNumber) return 'unreadable';
      return numberKey(p) === numberKey(mrz.documentNumber) ? 'agree' : 'differ';
    }
  }
}

function mrzValueOf(field: ComparedField, mrz: ParsedMrz): string {
  switch (field) {
    case 'surname':
      return mrz.surname;
    case 'given_names':
      return mrz.givenNames;
    case 'date_of_birth':
      return mrz.dateOfBirth ?? mrz.rawDateOfBirth;
    case 'date_of_expiry':
      return mrz.dateOfExpiry ?? mrz.rawDateOfExpiry;
    case 'sex':
      return mrz.sex ?? '?';
    case 'document_number':
      return mrz.documentNumber;
  }
}

/**
 * viz_mrz_consistency: pass when every compared field agrees; warn when those readable agree
 * but some could not be read (score = share of fields that agree); fail when one differs,
 * grave (cap 0.50) when it is the surname, the given names or the date of birth.
 * Skipped without an MRZ to compare with.
 */
export function consistencyCheck(ctx: JudgeContext): CheckOutcome {
  const { mrz, obs } = ctx;
  if (mrz === null) {
    const reason =
      obs.mrz === null
        ? text('Pas de MRZ à comparer avec la zone imprimée.', 'No MRZ to compare with the printed zone.')
        : text(
            'La MRZ lue est illisible dans sa forme : pas de comparaison avec la zone imprimée.',
            'The MRZ read has no usable shape: no comparison with the printed zone.',
          );
    return {
      check: { name: 'viz_mrz_consistency', status: 'skipped', score: null, explanation: reason },
      grave: null,
      zero: null,
    };
  }

  const results = COMPARED_FIELDS.map((field) => ({ field, result: compareField(field, obs.printed, mrz) }));
  const differ = results.filter((r) => r.result === 'differ');
  const unreadable = results.filter((r) => r.result === 'unreadable');
  const agreeing = results.length - differ.length - unreadable.length;

  if (differ.length > 0) {
    const graveFields = differ.filter((d) => GRAVE_FIELDS.has(d.field));
    const fr = differ.map(
      (d) =>
        `${fieldLabel(d.field).fr} (imprimé « ${obs.printed[d.field]} », MRZ « ${mrzValueOf(d.field, mrz)} »)`,
    );
    const en = differ.map(
      (d) =>
        `${fieldLabel(d.field).en} (printed "${obs.printed[d.field]}", MRZ "${mrzValueOf(d.field, mrz)}")`,
    );
    const plural = differ.length > 1;
    return {
      check: {
        name: 'viz_mrz_consistency',
        status: 'fail',
        score: 0,
        explanation: text(
          `${plural ? 'Champs différents' : 'Champ différent'} entre la zone imprimée et la MRZ : ${listFr(fr)}.`,
          `${plural ? 'Fields differ' : 'Field differs'} between the printed zone and the MRZ: ${listEn(en)}.`,
        ),
      },
      grave:
        graveFields.length > 0
          ? `${graveFields.map((g) => fieldLabel(g.field).en).join(', ')} differ between printed zone and MRZ`
          : null,
      zero: null,
    };
  }
  if (unreadable.length > 0) {
    const fr = listFr(unreadable.map((u) => fieldLabel(u.field).fr));
    const en = listEn(unreadable.map((u) => fieldLabel(u.field).en));
    return {
      check: {
        name: 'viz_mrz_consistency',
        status: 'warn',
        score: agreeing / results.length,
        explanation: text(
          agreeing > 0
            ? `Les champs lisibles concordent entre la zone imprimée et la MRZ ; illisibles, donc non comparés : ${fr}.`
            : `Aucun champ n'a pu être comparé entre la zone imprimée et la MRZ (illisibles : ${fr}).`,
          agreeing > 0
            ? `The readable fields agree between the printed zone and the MRZ; unreadable, so not compared: ${en}.`
            : `No field could be compared between the printed zone and the MRZ (unreadable: ${en}).`,
        ),
      },
      grave: null,
      zero: null,
    };
  }
  const all = COMPARED_FIELDS.map((f) => fieldLabel(f));
  return {
    check: {
      name: 'viz_mrz_consistency',
      status: 'pass',
      score: 1,
      explanation: text(
        `${sentence(listFr(all.map((l) => l.fr)))} concordent entre la zone imprimée et la MRZ.`,
        `${sentence(listEn(all.map((l) => l.en)))} agree between the printed zone and the MRZ.`,
      ),
    },
    grave: null,
    zero: null,
  };
}
