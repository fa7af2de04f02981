import { SCORING } from '../scoring-parameters.ts';
import type { FaceMatch } from '../verification.ts';
import type { CheckOutcome, JudgeContext } from './context.ts';
import { numEn, numFr, text } from './text.ts';

/** The check's score: 0 at similarity 0.30, rising linearly to 1 at 0.60 (spec). */
export function faceScore(similarity: number): number {
  const { scoreZeroAt, scoreFullAt } = SCORING.face;
  const t = (similarity - scoreZeroAt) / (scoreFullAt - scoreZeroAt);
  return Math.min(1, Math.max(0, t));
}

function outcome(
  status: 'pass' | 'warn' | 'fail',
  score: number,
  fr: string,
  en: string,
  flags: { grave?: string; zero?: string } = {},
): CheckOutcome {
  return {
    check: { name: 'face_match', status, score, explanation: text(fr, en) },
    grave: flags.grave ?? null,
    zero: flags.zero ?? null,
  };
}

/**
 * face_match: the document portrait against the selfie. Skipped without a selfie. Fails when
 * the portrait is not found (grave, cap 0.50), when the selfie has no face or several, when
 * the faces cannot be compared, or below similarity 0.30 (whole score set to 0).
 */
export function faceMatchCheck(ctx: JudgeContext): CheckOutcome {
  const { obs } = ctx;
  const face = obs.face;
  if (face === null) {
    return {
      check: {
        name: 'face_match',
        status: 'skipped',
        score: null,
        explanation: text(
          "Aucun selfie n'a été envoyé : pas de comparaison de visage.",
          'No selfie was sent: no face comparison.',
        ),
      },
      grave: null,
      zero: null,
    };
  }
  if (!obs.portrait_found || face.faces_in_document === 0) {
    return outcome(
      'fail',
      0,
      'Portrait introuvable sur le document : le visage du selfie ne peut pas lui être comparé.',
      'Portrait not found on the document: the selfie cannot be compared with it.',
      { grave: 'portrait not found on the document' },
    );
  }
  if (face.faces_in_selfie === 0) {
    return outcome('fail', 0, 'Aucun visage trouvé sur le selfie.', 'No face found on the selfie.');
  }
  if (face.faces_in_selfie > 1) {
    const n = face.faces_in_selfie;
    return outcome(
      'fail',
      0,
      `${n} visages sur le selfie : une seule personne doit y figurer.`,
      `${n} faces on the selfie: only one person may appear on it.`,
    );
  }
  const similarity = face.similarity;
  if (similarity === null) {
    return outcome(
      'fail',
      0,
      "Les visages n'ont pas pu être comparés (visage du selfie ou du portrait inexploitable).",
      'The faces could not be compared (selfie or portrait face unusable).',
    );
  }
  const { pass, zeroBelow } = SCORING.face;
  // Shown truncated, never rounded up: 0.298 reads 0.29, not "0.30, minimum 0.30".
  const s = Math.floor(similarity * 100 + 1e-9) / 100;
  if (similarity < zeroBelow) {
    return outcome(
      'fail',
      0,
      `Le selfie ne correspond pas au portrait du document (similarité ${numFr(s)}, minimum ${numFr(zeroBelow)}).`,
      `The selfie does not match the document portrait (similarity ${numEn(s)}, minimum ${numEn(zeroBelow)}).`,
      { zero: 'face similarity below 0.30' },
    );
  }
  if (similarity < pass) {
    return outcome(
      'warn',
      faceScore(similarity),
      `Ressemblance faible entre le selfie et le portrait (similarité ${numFr(s)} ; ${numFr(pass)} requis pour valider).`,
      `Weak resemblance between the selfie and the portrait (similarity ${numEn(s)}; ${numEn(pass)} needed to pass).`,
    );
  }
  return outcome(
    'pass',
    faceScore(similarity),
    `Le selfie correspond au portrait du document (similarité ${numFr(s)}).`,
    `The selfie matches the document portrait (similarity ${numEn(s)}).`,
  );
}

/** The public `face_match` object; null when no selfie was sent (DESIGN.md). */
export function faceMatchOf(ctx: JudgeContext, status: string): FaceMatch | null {
  const face = ctx.obs.face;
  if (face === null) return null;
  return {
    similarity: face.similarity ?? 0,
    matched: status === 'pass',
    faces_in_document: face.faces_in_document,
    faces_in_selfie: face.faces_in_selfie,
  };
}
