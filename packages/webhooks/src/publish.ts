import { newId, type Verification } from '@idv/core';
import type { Store } from '@idv/store';
import { eventsQueue } from './messages.ts';

export const VERIFICATION_COMPLETED = 'verification.completed';

export interface VerificationCompletedInput {
  orgId: string;
  appId: string;
  mode: 'test' | 'live';
  /** The Verification as returned by POST /v1/verify (with `final_verdict` after a review). */
  verification: Verification;
}

/** The event body every endpoint receives; the spec fixes its four fields. */
export function verificationCompletedBody(
  eventId: string,
  createdAt: Date,
  input: VerificationCompletedInput,
): string {
  return JSON.stringify({
    id: eventId,
    type: VERIFICATION_COMPLETED,
    created_at: createdAt.toISOString(),
    data: {
      ...input.verification,
      mode: input.mode,
      app_id: input.appId,
      final_verdict: input.verification.final_verdict ?? null,
    },
  });
}

/**
 * Emits `verification.completed` for every endpoint of the application (test and live both).
 *
 * The event is written to the table first (the outbox); only then is the fan-out message
 * queued. If queueing fails the call still succeeds — the event is safe, and the worker's
 * sweep re-sends every event not fanned out after a couple of minutes. If the write itself
 * fails, this throws: nothing was promised yet.
 */
export async function publishVerificationCompleted(
  store: Store,
  input: VerificationCompletedInput,
  options: { now?: Date } = {},
): Promise<{ eventId: string }> {
  const now = options.now ?? new Date();
  const eventId = newId('evt');
  await store.events.record({
    id: eventId,
    type: VERIFICATION_COMPLETED,
    org_id: input.orgId,
    app_id: input.appId,
    body: verificationCompletedBody(eventId, now, input),
    created_at: now.toISOString(),
  });
  try {
    await eventsQueue(store).send({ kind: 'fan_out', event_id: eventId });
  } catch (error) {
    console.error(
      JSON.stringify({
        level: 'warn',
        msg: 'event recorded but not queued; the sweep will send it',
        event_id: eventId,
        error: String(error),
      }),
    );
  }
  return { eventId };
}

/** The publisher the API takes in `AppDeps.events`: `events: webhookEventPublisher(store)`. */
export function webhookEventPublisher(store: Store) {
  return {
    publishVerificationCompleted: (input: VerificationCompletedInput) =>
      publishVerificationCompleted(store, input),
  };
}
