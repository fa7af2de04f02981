import type { Observations } from '../observations.ts';
import { CHECK_ORDER } from '../scoring-parameters.ts';
import {
  type Check,
  type DocumentFields,
  type FaceMatch,
  statusOf,
  type Verdict,
  type VerdictStatus,
  type VerificationDocument,
} from '../verification.ts';
import { consistencyCheck } from './consistency.ts';
import { type CheckOutcome, contextOf } from './context.ts';
import { expiryCheck } from './expiry.ts';
import { faceMatchCheck, faceMatchOf } from './face-match.ts';
import { documentFieldsOf } from './fields.ts';
import { mrzChecksumCheck } from './mrz-checksum.ts';
import { type AppliedCap, applyCaps, verdictOf, weightedAverage } from './overall-score.ts';
import { tamperCheck } from './tamper.ts';

export interface Judgement {
  /** Always the five, in the order mrz_checksum, expiry, viz_mrz_consistency, tamper, face_match. */
  checks: Check[];
  /** 0..1, rounded to 2 decimals, caps applied. */
  score: number;
  verdict: Verdict;
  status: VerdictStatus;
  document_type: VerificationDocument['type'];
  document: VerificationDocument;
  /** Same as `document.fields` (DESIGN.md). */
  fields: DocumentFields;
  /** Null when no selfie was sent. */
  face_match: FaceMatch | null;
  /** How the score was reached; for logs, tests and the console, not part of the public Verification. */
  scoring: { average: number; caps: AppliedCap[]; paper_card_exception: boolean };
}

/**
 * Turns what the analyser observed into the five checks, the score and the verdict (spec
 * "Check rules" and "Scoring rules", DESIGN.md's cap order). Pure: `now` is the verification
 * time, whose UTC date decides expiry.
 */
export function judge(obs: Observations, opts: { now: Date }): Judgement {
  const ctx = contextOf(obs, opts.now);
  const outcomes: Record<Check['name'], CheckOutcome> = {
    mrz_checksum: mrzChecksumCheck(ctx),
    expiry: expiryCheck(ctx),
    viz_mrz_consistency: consistencyCheck(ctx),
    tamper: tamperCheck(ctx),
    face_match: faceMatchCheck(ctx),
  };
  // Check scores are published with 4 decimals (0.8333, not 0.8333333333333336) and the
  // average is computed from the published values, so anyone can recompute the score.
  for (const o of Object.values(outcomes)) {
    if (o.check.score !== null) o.check.score = Math.round(o.check.score * 10_000) / 10_000;
  }
  const checks = CHECK_ORDER.map((name) => outcomes[name].check);
  const average = weightedAverage(checks);
  const { score, caps, paperCardException } = applyCaps(average, ctx, outcomes);
  const verdict = verdictOf(score, checks);
  const fields = documentFieldsOf(obs, ctx.mrz);
  const mrzValid = ctx.mrz?.valid ?? false;
  return {
    checks,
    score,
    verdict,
    status: statusOf(verdict),
    document_type: obs.document.type,
    document: {
      type: obs.document.type,
      country: (mrzValid ? ctx.mrz?.issuingState : null) ?? obs.document.country,
      fields,
      mrz: obs.mrz ? { lines: obs.mrz.lines, valid: mrzValid } : null,
      legibility: obs.document.legibility,
    },
    fields,
    face_match: faceMatchOf(ctx, outcomes.face_match.check.status),
    scoring: { average, caps, paper_card_exception: paperCardException },
  };
}
