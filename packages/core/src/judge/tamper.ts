import type { Observations, Severity, TamperSignal, TamperType } from '../observations.ts';
import { SCORING } from '../scoring-parameters.ts';
import type { Anomaly, CheckStatus } from '../verification.ts';
import type { CheckOutcome, JudgeContext } from './context.ts';
import { fieldLabel, listEn, listFr, numEn, numFr, text } from './text.ts';

/** Capture problems: they cost points but never fail the check alone (spec). */
export const CAPTURE_ANOMALIES: ReadonlySet<TamperType> = new Set(['glare', 'blur', 'partial_document']);

const ANOMALY_LABELS: Record<TamperType, { fr: string; en: string }> = {
  photo_of_screen: { fr: "photo d'un écran", en: 'photo of a screen' },
  photocopy: { fr: 'photocopie ou impression', en: 'photocopy or print' },
  font_inconsistency: {
    fr: "police différente à l'intérieur d'un champ",
    en: 'different font inside a field',
  },
  portrait_edge: { fr: 'bords du portrait qui semblent collés', en: 'portrait edges look pasted' },
  field_overwritten: { fr: 'champ surchargé', en: 'overwritten field' },
  glare: { fr: 'reflet', en: 'glare' },
  blur: { fr: 'flou', en: 'blur' },
  partial_document: {
    fr: 'partie du document hors cadre ou masquée',
    en: 'part of the document out of frame or hidden',
  },
};
const SEVERITY_LABELS: Record<Severity, { fr: string; en: string }> = {
  low: { fr: 'faible', en: 'low' },
  medium: { fr: 'moyenne', en: 'medium' },
  high: { fr: 'forte', en: 'high' },
};
const SIDE_LABELS: Record<TamperSignal['side'], { fr: string; en: string }> = {
  front: { fr: 'recto', en: 'front' },
  back: { fr: 'verso', en: 'back' },
  selfie: { fr: 'selfie', en: 'selfie' },
};

/** What one signal does to the check: its status and the highest score it allows. */
export function anomalyEffect(signal: Pick<TamperSignal, 'type' | 'severity'>): {
  status: CheckStatus;
  score: number;
} {
  const capture = CAPTURE_ANOMALIES.has(signal.type);
  const score = SCORING.tamper.anomalyScore[capture ? 'capture' : 'tampering'][signal.severity];
  if (!capture && signal.severity === 'high') return { status: 'fail', score };
  // A low capture problem (slight glare) is no real doubt about the document.
  if (capture && signal.severity === 'low') return { status: 'pass', score };
  return { status: 'warn', score };
}

function describe(signal: TamperSignal): { fr: string; en: string } {
  const label = ANOMALY_LABELS[signal.type];
  const field = signal.field ? fieldLabel(signal.field) : null;
  const sev = SEVERITY_LABELS[signal.severity];
  const side = SIDE_LABELS[signal.side];
  return {
    fr: `${label.fr}${field ? ` (${field.fr})` : ''}, gravité ${sev.fr}, ${side.fr}`,
    en: `${label.en}${field ? ` (${field.en})` : ''}, ${sev.en} severity, ${side.en}`,
  };
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The anomalies as shown in `details.anomalies`, each with its own sentence. */
export function anomaliesOf(obs: Observations): Anomaly[] {
  return obs.tamper.map((signal) => {
    const d = describe(signal);
    return {
      type: signal.type,
      severity: signal.severity,
      explanation: text(`${capital(d.fr)}.`, `${capital(d.en)}.`),
    };
  });
}

const RANK: Record<CheckStatus, number> = { skipped: 0, pass: 1, warn: 2, fail: 3 };

/**
 * tamper: visual signs on the document photos. A high-severity sign of tampering fails it;
 * lower ones and capture problems lower its score (warn). An invisible portrait or a text
 * below `SCORING.tamper.minLegibility` also fails it. The Niger paper card scores at most
 * `SCORING.tamper.paperCardMaxScore` (see scoring-parameters.ts for why).
 */
export function tamperCheck(ctx: JudgeContext): CheckOutcome {
  const { obs } = ctx;
  const anomalies = anomaliesOf(obs);
  let status: CheckStatus = 'pass';
  let score: number = ctx.paperCard ? SCORING.tamper.paperCardMaxScore : 1;
  for (const signal of obs.tamper) {
    const effect = anomalyEffect(signal);
    if (RANK[effect.status] > RANK[status]) status = effect.status;
    score = Math.min(score, effect.score);
  }

  const reasonsFr: string[] = [];
  const reasonsEn: string[] = [];
  if (!obs.portrait_found) {
    status = 'fail';
    score = 0;
    reasonsFr.push("le portrait n'est pas visible sur le document");
    reasonsEn.push('the portrait is not visible on the document');
  }
  const legibility = obs.document.legibility;
  if (legibility < SCORING.tamper.minLegibility) {
    status = 'fail';
    score = 0;
    reasonsFr.push(
      `le document est presque illisible (lisibilité ${numFr(legibility)}, minimum ${numFr(SCORING.tamper.minLegibility)})`,
    );
    reasonsEn.push(
      `the document is barely legible (legibility ${numEn(legibility)}, minimum ${numEn(SCORING.tamper.minLegibility)})`,
    );
  }

  const signs = obs.tamper.map(describe);
  const tampering = obs.tamper.filter((s) => !CAPTURE_ANOMALIES.has(s.type));
  let fr: string;
  let en: string;
  if (status === 'fail') {
    const failing = obs.tamper.filter((s) => anomalyEffect(s).status === 'fail').map(describe);
    const allFr = [...failing.map((d) => d.fr), ...reasonsFr];
    const allEn = [...failing.map((d) => d.en), ...reasonsEn];
    fr = `Signe de falsification ou document inexploitable : ${listFr(allFr)}.`;
    en = `Sign of tampering or unusable document: ${listEn(allEn)}.`;
  } else if (signs.length > 0) {
    const kind =
      tampering.length > 0
        ? { fr: 'Doute sur l’authenticité', en: 'Doubt about authenticity' }
        : { fr: 'Problème de prise de vue', en: 'Capture problem' };
    fr = `${kind.fr} : ${listFr(signs.map((d) => d.fr))}.`;
    en = `${kind.en}: ${listEn(signs.map((d) => d.en))}.`;
    if (tampering.length === 0) {
      fr +=
        ' Un problème de prise de vue ne fait jamais échouer ce contrôle à lui seul ; une meilleure photo améliore le score.';
      en += ' A capture problem never fails this check alone; a better photo improves the score.';
    }
  } else {
    fr = 'Aucun signe de falsification relevé.';
    en = 'No sign of tampering found.';
  }
  if (ctx.paperCard && status !== 'fail') {
    fr += ` Sur la carte papier du Niger, cachets, timbre fiscal, empreinte, écriture manuscrite et usure sont normaux ; faute d'éléments de sécurité à examiner, ce contrôle compte au plus ${numFr(SCORING.tamper.paperCardMaxScore)}.`;
    en += ` On the Niger paper card, stamps, fiscal stamp, fingerprint, handwriting and wear are normal; with no security features to examine, this check counts for at most ${numEn(SCORING.tamper.paperCardMaxScore)}.`;
  }
  return {
    check: { name: 'tamper', status, score, explanation: text(fr, en), details: { anomalies } },
    grave: null,
    zero: null,
  };
}
