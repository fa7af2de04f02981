import type { Severity, TamperType } from '@idv/core';

/**
 * The spec's tamper table: for each sign, the most severe effect it can have on the check and
 * a description in French and English that can be shown as is (the core repeats it in
 * `details.anomalies[].explanation`).
 */
export const TAMPER_SIGNS: Record<
  TamperType,
  { maxEffect: 'fail' | 'warn'; capture: boolean; description: { fr: string; en: string } }
> = {
  photo_of_screen: {
    maxEffect: 'fail',
    capture: false,
    description: {
      fr: 'La photo semble prise sur un écran (trame de pixels, moiré ou franges colorées).',
      en: 'The photo appears to be taken of a screen (pixel grid, moiré or colour fringes).',
    },
  },
  photocopy: {
    maxEffect: 'fail',
    capture: false,
    description: {
      fr: "Le document semble être une photocopie ou une impression : ses couleurs d'origine ont disparu.",
      en: 'The document appears to be a photocopy or a print: its original colours are missing.',
    },
  },
  font_inconsistency: {
    maxEffect: 'fail',
    capture: false,
    description: {
      fr: 'Un caractère a une taille ou une forme différente des autres dans le même champ.',
      en: 'A character differs in size or shape from the others in the same field.',
    },
  },
  portrait_edge: {
    maxEffect: 'fail',
    capture: false,
    description: {
      fr: 'La photo du titulaire semble collée : bords découpés, ou stries laissées par une photo insérée dans le cadre.',
      en: "The holder's portrait looks pasted: cut-out edges, or the streaks left by a photo fitted into the frame.",
    },
  },
  field_overwritten: {
    maxEffect: 'fail',
    capture: false,
    description: {
      fr: 'Le fond d’un champ diffère du reste du document, comme s’il avait été effacé et réécrit.',
      en: 'The background of a field differs from the rest of the document, as if it had been erased and rewritten.',
    },
  },
  glare: {
    maxEffect: 'warn',
    capture: true,
    description: {
      fr: 'Un reflet masque une partie du document.',
      en: 'A reflection hides part of the document.',
    },
  },
  blur: {
    maxEffect: 'warn',
    capture: true,
    description: { fr: 'La photo est floue.', en: 'The photo is blurry.' },
  },
  partial_document: {
    maxEffect: 'warn',
    capture: true,
    description: {
      fr: 'Une partie du document est hors du cadre ou masquée.',
      en: 'Part of the document is out of the frame or hidden.',
    },
  },
};

/** A strength from which a sign is high (fraud signs: a tamper fail) or medium (capture signs). */
export const HIGH_STRENGTH = 0.5;
/**
 * The largest strength under HIGH_STRENGTH: the cap of every cue that may ask for a review but
 * must never fail the check on its own (a pale print, one copy cue alone, a portrait seam alone,
 * typed text, a paper card's grey).
 */
export const REVIEW_MAX_STRENGTH = 0.49;

/**
 * A review-only cue's strength from how far it is past its bar (`share`, 0 at the bar, 1 at its
 * certainty; clamped): 0.01 at the bar, so that a sign just over the bar still shows, up to
 * REVIEW_MAX_STRENGTH.
 */
export function reviewStrength(share: number): number {
  return 0.01 + Math.max(0, Math.min(1, share)) * (REVIEW_MAX_STRENGTH - 0.01);
}

/** Severity from a detector's strength: fraud signs start at medium, capture ones at low. */
export function severityFor(type: TamperType, strength: number): Severity {
  if (TAMPER_SIGNS[type].capture) return strength >= HIGH_STRENGTH ? 'medium' : 'low';
  return strength >= HIGH_STRENGTH ? 'high' : 'medium';
}
