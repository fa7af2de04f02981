import { MRZ_LAYOUTS } from '../mrz/layout.ts';
import type { MrzCheckName } from '../mrz/parse.ts';
import type { CheckOutcome, JudgeContext } from './context.ts';
import { listEn, listFr, text } from './text.ts';

const DIGIT_LABELS: Record<MrzCheckName, { fr: string; en: string }> = {
  document_number: { fr: 'numéro du document', en: 'document number' },
  date_of_birth: { fr: 'date de naissance', en: 'date of birth' },
  date_of_expiry: { fr: "date d'expiration", en: 'date of expiry' },
  optional_data: { fr: 'numéro personnel', en: 'personal number' },
  composite: { fr: 'chiffre composite', en: 'composite' },
};

function fail(reason: string, fr: string, en: string): CheckOutcome {
  return {
    check: { name: 'mrz_checksum', status: 'fail', score: 0, explanation: text(fr, en) },
    grave: reason,
    zero: null,
  };
}

/**
 * mrz_checksum: recomputes the ICAO 9303 check digits. Any wrong digit, character not allowed
 * or unknown format fails it, and that failure is grave (score capped at 0.50).
 */
export function mrzChecksumCheck(ctx: JudgeContext): CheckOutcome {
  const { obs, mrz } = ctx;
  if (obs.mrz === null) {
    const explanation = ctx.paperCard
      ? text(
          "L'ancienne carte papier du Niger n'a pas de MRZ : contrôle sans objet.",
          'The older Niger paper card has no MRZ: check not applicable.',
        )
      : text(
          "Aucune MRZ (zone de lecture automatique) n'a été trouvée sur le document : contrôle sans objet.",
          'No MRZ (machine readable zone) was found on the document: check not applicable.',
        );
    return {
      check: { name: 'mrz_checksum', status: 'skipped', score: null, explanation },
      grave: null,
      zero: null,
    };
  }
  if (mrz === null) {
    return fail(
      'MRZ of unknown format',
      'La MRZ lue n’a pas un format connu (2 lignes de 44 caractères, 2 de 36 ou 3 de 30).',
      'The MRZ read does not have a known format (2 lines of 44 characters, 2 of 36 or 3 of 30).',
    );
  }
  if (mrz.invalidCharacters) {
    return fail(
      'MRZ with invalid characters',
      'La MRZ contient des caractères non autorisés (seuls A à Z, 0 à 9 et < le sont).',
      'The MRZ contains characters that are not allowed (only A to Z, 0 to 9 and <).',
    );
  }
  if (!mrz.lengthsValid) {
    const n = MRZ_LAYOUTS[mrz.format].lineLength;
    return fail(
      'MRZ lines of wrong length',
      `Les lignes de la MRZ n’ont pas la longueur attendue (${n} caractères).`,
      `The MRZ lines do not have the expected length (${n} characters).`,
    );
  }
  const wrong = mrz.checks.filter((c) => !c.valid).map((c) => DIGIT_LABELS[c.name]);
  if (wrong.length > 0) {
    const plural = wrong.length > 1;
    return fail(
      'wrong MRZ check digit',
      `${plural ? 'Chiffres de contrôle faux' : 'Chiffre de contrôle faux'} dans la MRZ : ${listFr(wrong.map((w) => w.fr))}.`,
      `Wrong MRZ check ${plural ? 'digits' : 'digit'}: ${listEn(wrong.map((w) => w.en))}.`,
    );
  }
  if (!mrz.fieldsWellFormed) {
    return fail(
      'malformed MRZ field',
      'Un champ de la MRZ contient des caractères de la mauvaise sorte (une lettre dans une date, un sexe autre que M, F ou X, un numéro de document coupé par un caractère de remplissage).',
      'An MRZ field holds the wrong kind of characters (a letter in a date, a sex other than M, F or X, a document number broken by a filler).',
    );
  }
  const covered = listFr(mrz.checks.map((c) => DIGIT_LABELS[c.name].fr));
  const coveredEn = listEn(mrz.checks.map((c) => DIGIT_LABELS[c.name].en));
  const corrected = obs.mrz.corrected;
  return {
    check: {
      name: 'mrz_checksum',
      status: 'pass',
      score: 1,
      explanation: text(
        `Tous les chiffres de contrôle de la MRZ sont justes (${covered})` +
          (corrected ? ', après correction de confusions de lecture guidée par ces chiffres.' : '.'),
        `All MRZ check digits are correct (${coveredEn})` +
          (corrected ? ', after correcting reading confusions guided by those digits.' : '.'),
      ),
    },
    grave: null,
    zero: null,
  };
}
