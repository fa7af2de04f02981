import type { Store } from '@idv/store';
import { asWebhookMessage, eventsQueue } from './messages.ts';
import type { WebhookSettings } from './settings.ts';

export interface RecoveryReport {
  /** Deliveries looked at (their due marker had passed). */
  examined: number;
  /** Attempt messages re-sent to the events queue. */
  requeued: number;
  /** Markers removed because their delivery is finished (or was never created). */
  cleared: number;
}

/**
 * The table is the truth: re-sends the message of every unfinished delivery that is overdue —
 * its next attempt due (`next_attempt_at` passed), or its attempt claimed by a worker that has
 * not recorded a reply within `staleClaimMs` (that worker died). Messages lost by a restart (the
 * local queue lives in memory) or parked in the dead-letter queue on AWS are thus recreated.
 *
 * Sending a message twice is harmless: an attempt is sent only by the worker whose conditional
 * claim of its number succeeds, so two passes at once (or a pass racing the original message)
 * still send each attempt once. `overdueByMs` leaves alone what is only just due, whose own
 * message is probably on its way (0 at start-up, when nothing is on its way).
 */
export async function recoverOverdueDeliveries(
  store: Store,
  settings: Pick<WebhookSettings, 'staleClaimMs'>,
  options: { overdueByMs?: number; now?: Date; limit?: number } = {},
): Promise<RecoveryReport> {
  const now = options.now ?? new Date();
  const cutoff = now.getTime() - (options.overdueByMs ?? 0);
  const report: RecoveryReport = { examined: 0, requeued: 0, cleared: 0 };
  const due = await store.webhookDeliveries.listDue(new Date(cutoff), options.limit ?? 500);
  for (const marker of due) {
    report.examined++;
    const delivery = await store.webhookDeliveries.get(marker.id);
    if (delivery?.status !== 'pending') {
      if (await store.webhookDeliveries.clearDueMarker(marker)) report.cleared++;
      continue;
    }
    let attempt: number;
    let dueAt: string;
    if (delivery.in_flight) {
      // Claimed but never recorded: once stale, the worker handling attempt n counts it failed.
      const claimedAt = Date.parse(delivery.claimed_at ?? '');
      if (!(claimedAt + settings.staleClaimMs <= cutoff)) continue;
      attempt = delivery.attempts;
      dueAt = now.toISOString();
    } else {
      dueAt = delivery.next_attempt_at ?? delivery.created_at;
      if (Date.parse(dueAt) > cutoff) continue;
      attempt = delivery.attempts + 1;
    }
    await eventsQueue(store).send({ kind: 'attempt', delivery_id: delivery.id, attempt, due_at: dueAt });
    report.requeued++;
  }
  return report;
}

/**
 * Folds the dead-letter queue back: a fan-out or attempt message that failed too often (SQS moved
 * it there after its receive limit) is sent to the events queue again, where the claims keep it
 * from sending anything twice. `delivery_failed` reports stay where they are (they are the
 * record of a spent schedule). At most `maxBatches` receives, so a pass always ends.
 */
export async function foldBackDeadLetters(
  store: Store,
  options: { maxBatches?: number } = {},
): Promise<number> {
  const dlq = store.eventsDeadLetterQueue;
  let folded = 0;
  for (let batch = 0; batch < (options.maxBatches ?? 10); batch++) {
    const messages = await dlq.receive({ waitSeconds: 0 });
    if (messages.length === 0) break;
    for (const message of messages) {
      const webhookMessage = asWebhookMessage(message.body);
      if (!webhookMessage) continue; // a report, or something unknown: left for people to read
      await eventsQueue(store).send(webhookMessage);
      await dlq.delete(message.receiptHandle);
      folded++;
    }
  }
  return folded;
}
