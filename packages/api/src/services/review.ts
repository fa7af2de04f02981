import type { Verification } from '@idv/core';
import { isConditionFailure } from '@idv/store';
import { type AppDeps, nowOf } from '../deps.ts';
import { ApiError } from '../http/api-error.ts';

/** Spec: the reviewer note is optional, up to 2000 characters. */
export const REVIEW_NOTE_MAX = 2000;

export type ReviewDecision = 'approve' | 'reject';

export interface ReviewInput {
  orgId: string;
  verificationId: string;
  decision: ReviewDecision;
  note?: string;
  /** The console user who decides (recorded as the audit entry's author). */
  actor: string;
}

const FINAL_VERDICT = { approve: 'verified', reject: 'rejected' } as const;

/**
 * A reviewer's decision on a `review` verification, once and for all: sets `final_verdict`
 * (never `verdict`) and writes the audit entry in one conditional transaction, so that of
 * several decisions, even concurrent, exactly one is kept and the others get 409 `conflict`.
 * Then sends the second `verification.completed`, with `final_verdict` set.
 */
export async function decideReview(deps: AppDeps, input: ReviewInput): Promise<Verification> {
  const note = input.note?.trim() ? input.note.trim() : null;
  if (note && note.length > REVIEW_NOTE_MAX) {
    throw new ApiError('invalid_request', `note: at most ${REVIEW_NOTE_MAX} characters`);
  }
  const { store } = deps;
  const record = await store.verifications.getById(input.verificationId);
  if (!record || record.org_id !== input.orgId) {
    throw new ApiError('not_found', 'no verification with this id');
  }
  const before = record.verification;
  refuseUndecidable(before);

  const finalVerdict = FINAL_VERDICT[input.decision];
  const now = nowOf(deps);
  try {
    await store.transact([
      store.verifications.decideItem(before.id, input.orgId, finalVerdict),
      store.audit.recordItem(
        {
          org_id: input.orgId,
          action: 'verification.reviewed',
          actor: input.actor,
          resource_id: before.id,
          details: {
            old_verdict: before.verdict,
            old_final_verdict: before.final_verdict ?? null,
            new_final_verdict: finalVerdict,
            decision: input.decision,
            note,
          },
        },
        now,
      ),
    ]);
  } catch (error) {
    // Another decision won the race between our read and our write.
    if (isConditionFailure(error)) throw new ApiError('conflict', 'this verification was already decided');
    throw error;
  }

  const decided: Verification = { ...before, final_verdict: finalVerdict };
  await deps.events
    ?.publishVerificationCompleted({
      orgId: record.org_id,
      appId: record.app_id,
      mode: record.mode,
      verification: decided,
    })
    .catch((error: unknown) =>
      console.error(
        JSON.stringify({ level: 'error', msg: 'review event publication failed', error: String(error) }),
      ),
    );
  return decided;
}

function refuseUndecidable(v: Verification): void {
  if (v.verdict !== 'review') {
    throw new ApiError('conflict', `only a verification in review can be decided (this one is ${v.verdict})`);
  }
  if (v.final_verdict) throw new ApiError('conflict', 'this verification was already decided');
}
