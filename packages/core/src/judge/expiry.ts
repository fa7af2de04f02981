import { addYears, isIsoDate } from '../dates.ts';
import { SCORING } from '../scoring-parameters.ts';
import type { CheckOutcome, JudgeContext } from './context.ts';
import { dateEn, dateFr, text } from './text.ts';

/** Where the expiry date came from. */
export type ExpirySource = 'mrz' | 'printed' | 'issue_date';

export interface ExpiryDate {
  date: string;
  source: ExpirySource;
  /** Paper card: the issue date the validity is counted from. */
  issued?: string;
}

/**
 * The expiry date to judge: from the MRZ first (when its own check digit holds and it is a real
 * date), else the printed one; the Niger paper card has none printed and is valid for
 * `SCORING.paperCard.validityYears` years after its issue date.
 */
export function expiryDateOf(ctx: JudgeContext): ExpiryDate | null {
  const { mrz, obs } = ctx;
  const mrzDigit = mrz?.checks.find((c) => c.name === 'date_of_expiry');
  if (mrz?.dateOfExpiry && mrzDigit?.valid) return { date: mrz.dateOfExpiry, source: 'mrz' };
  if (isIsoDate(obs.printed.date_of_expiry)) return { date: obs.printed.date_of_expiry, source: 'printed' };
  if (ctx.paperCard && isIsoDate(obs.printed.date_of_issue)) {
    const issued = obs.printed.date_of_issue;
    return { date: addYears(issued, SCORING.paperCard.validityYears), source: 'issue_date', issued };
  }
  return null;
}

/**
 * expiry: valid at the verification date (the UTC date), the expiry day itself included.
 * Expired sets the whole score to 0; an unreadable date is a grave failure (cap 0.50).
 */
export function expiryCheck(ctx: JudgeContext): CheckOutcome {
  const found = expiryDateOf(ctx);
  const years = SCORING.paperCard.validityYears;
  if (found === null) {
    const explanation = ctx.paperCard
      ? text(
          `La date de délivrance de la carte papier n’a pas pu être lue : sa validité (${years} ans après la délivrance) ne peut pas être établie.`,
          `The paper card's issue date could not be read, so its validity (${years} years after issue) cannot be established.`,
        )
      : text(
          "La date d'expiration n'a pu être lue ni dans la MRZ ni dans la zone imprimée.",
          'The expiry date could be read neither from the MRZ nor from the printed zone.',
        );
    return {
      check: { name: 'expiry', status: 'fail', score: 0, explanation },
      grave: 'unreadable expiry date',
      zero: null,
    };
  }

  const { date, source } = found;
  const valid = date >= ctx.today;
  const today = { fr: dateFr(ctx.today), en: dateEn(ctx.today) };
  let explanation: { fr: string; en: string };
  if (source === 'issue_date') {
    const issued = { fr: dateFr(found.issued!), en: dateEn(found.issued!) };
    explanation = valid
      ? text(
          `Carte papier du Niger délivrée le ${issued.fr} : elle est valable ${years} ans après sa délivrance, soit jusqu'au ${dateFr(date)} inclus ; valide à la date de vérification, le ${today.fr}.`,
          `Niger paper card issued on ${issued.en}: it is valid for ${years} years after issue, that is until ${dateEn(date)} inclusive; valid on the verification date, ${today.en}.`,
        )
      : text(
          `Carte papier du Niger délivrée le ${issued.fr} : elle est valable ${years} ans après sa délivrance, soit jusqu'au ${dateFr(date)} ; expirée à la date de vérification, le ${today.fr}.`,
          `Niger paper card issued on ${issued.en}: it is valid for ${years} years after issue, that is until ${dateEn(date)}; expired on the verification date, ${today.en}.`,
        );
  } else {
    const from =
      source === 'mrz'
        ? { fr: 'lue dans la MRZ', en: 'read from the MRZ' }
        : { fr: 'lue dans la zone imprimée', en: 'read from the printed zone' };
    explanation = valid
      ? text(
          `Document valide jusqu'au ${dateFr(date)} inclus (date ${from.fr}) ; valide à la date de vérification, le ${today.fr}.`,
          `Document valid until ${dateEn(date)} inclusive (date ${from.en}); valid on the verification date, ${today.en}.`,
        )
      : text(
          `Document expiré : sa date d'expiration, le ${dateFr(date)} (${from.fr}), précède la date de vérification, le ${today.fr}.`,
          `Document expired: its expiry date, ${dateEn(date)} (${from.en}), is before the verification date, ${today.en}.`,
        );
  }
  return {
    check: { name: 'expiry', status: valid ? 'pass' : 'fail', score: valid ? 1 : 0, explanation },
    grave: null,
    zero: valid ? null : 'expired document',
  };
}
