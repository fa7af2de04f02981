/** The overall score from the five checks: weighted average, caps (in DESIGN.md order), rounding, verdict. */
import { isIsoDate } from '../dates.ts';
import { CHECK_ORDER, SCORING } from '../scoring-parameters.ts';
import type { Check, Verdict } from '../verification.ts';
import type { CheckOutcome, JudgeContext } from './context.ts';

export type CapRule = 'grave' | 'zero' | 'fail' | 'no_mrz';

/** A scoring rule that applied, with its limit and why (English, for logs and the console). */
export interface AppliedCap {
  rule: CapRule;
  limit: number;
  reasons: string[];
}

/** Weighted mean of the scores of the checks that are not skipped (their weights renormalised). */
export function weightedAverage(checks: readonly Check[]): number {
  let sum = 0;
  let weights = 0;
  for (const c of checks) {
    if (c.status === 'skipped' || c.score === null) continue;
    const w = SCORING.weights[c.name];
    sum += w * c.score;
    weights += w;
  }
  return weights === 0 ? 0 : sum / weights;
}

/**
 * Two decimals, half up. The tiny offset keeps binary floating point from rounding 0.895
 * (stored as 0.89499999…) down: scores are means of short decimals, so a value within 1e-9
 * of a half is a half.
 */
export function roundScore(x: number): number {
  return Math.round(x * 100 + 1e-9) / 100;
}

/** Which of the Niger paper card's conditions hold (spec: all must, to escape the no-MRZ cap). */
export function paperCardConditions(ctx: JudgeContext, outcomes: Record<Check['name'], CheckOutcome>) {
  const { obs } = ctx;
  const p = obs.printed;
  const similarity = obs.face?.similarity ?? null;
  return {
    faceSimilarity:
      outcomes.face_match.check.status !== 'fail' &&
      similarity !== null &&
      similarity >= SCORING.paperCard.minSimilarity,
    notExpired: outcomes.expiry.check.status === 'pass',
    noTamperSign: outcomes.tamper.check.status === 'pass',
    cleanReading:
      Boolean(p.surname?.trim()) &&
      Boolean(p.given_names?.trim()) &&
      isIsoDate(p.date_of_birth) &&
      Boolean(p.document_number?.trim()) &&
      obs.document.legibility >= SCORING.paperCard.minLegibility,
  };
}

/**
 * The caps, in DESIGN.md's order: grave failures (0.50), then expired / similarity below
 * 0.30 (0), then any fail (0.89), then no MRZ (0.85) unless the Niger paper card meets all
 * its conditions. Each only lowers the score, so a grave failure is never compensated.
 */
export function applyCaps(
  average: number,
  ctx: JudgeContext,
  outcomes: Record<Check['name'], CheckOutcome>,
): { score: number; caps: AppliedCap[]; paperCardException: boolean } {
  const list = CHECK_ORDER.map((n) => outcomes[n]);
  const caps: AppliedCap[] = [];
  const grave = list.flatMap((o) => (o.grave ? [o.grave] : []));
  if (grave.length > 0) caps.push({ rule: 'grave', limit: SCORING.caps.grave, reasons: grave });
  const zero = list.flatMap((o) => (o.zero ? [o.zero] : []));
  if (zero.length > 0) caps.push({ rule: 'zero', limit: SCORING.caps.zero, reasons: zero });
  const failing = list.filter((o) => o.check.status === 'fail').map((o) => `${o.check.name} in fail`);
  if (failing.length > 0) caps.push({ rule: 'fail', limit: SCORING.caps.fail, reasons: failing });

  let paperCardException = false;
  if (ctx.obs.mrz === null) {
    if (ctx.paperCard) {
      const conditions = paperCardConditions(ctx, outcomes);
      paperCardException = Object.values(conditions).every(Boolean);
      if (!paperCardException) {
        const unmet = Object.entries(conditions)
          .filter(([, ok]) => !ok)
          .map(([name]) => name);
        caps.push({
          rule: 'no_mrz',
          limit: SCORING.caps.noMrz,
          reasons: [`paper card conditions unmet: ${unmet.join(', ')}`],
        });
      }
    } else {
      caps.push({ rule: 'no_mrz', limit: SCORING.caps.noMrz, reasons: ['no MRZ on the document'] });
    }
  }
  const score = caps.reduce((s, cap) => Math.min(s, cap.limit), roundScore(average));
  return { score, caps, paperCardException };
}

/** Verdict from the rounded score: verified needs 0.90 and no check in fail. */
export function verdictOf(score: number, checks: readonly Check[]): Verdict {
  const anyFail = checks.some((c) => c.status === 'fail');
  if (score >= SCORING.thresholds.verified && !anyFail) return 'verified';
  if (score >= SCORING.thresholds.review) return 'review';
  return 'rejected';
}
