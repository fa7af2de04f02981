import type { AttemptOutcome, Store, WebhookDeliveryState } from '@idv/store';
import { type DeliveryResult, deliver } from './deliver.ts';
import { deliveryIdFor } from './delivery-id.ts';
import {
  asWebhookMessage,
  deadLetterQueue,
  delaySecondsUntil,
  eventsQueue,
  type WebhookMessage,
} from './messages.ts';
import { VERIFICATION_COMPLETED } from './publish.ts';
import { MAX_ATTEMPTS, retryDelayMs } from './schedule.ts';
import type { WebhookSettings } from './settings.ts';
import { signatureHeader } from './signing.ts';

/** `done`: delete the message. `retry`: leave it, to be seen again after `afterSeconds`. */
export type MessageResult = { kind: 'done' } | { kind: 'retry'; afterSeconds: number };

const DONE: MessageResult = { kind: 'done' };

/**
 * Handles one queue message. Safe to run twice on the same message, concurrently or not:
 * every state change is a conditional write, and HTTP is only sent by the worker whose claim
 * of the attempt number succeeded. Throws on storage errors (the message is then retried).
 */
export async function processMessage(
  store: Store,
  body: unknown,
  settings: WebhookSettings,
): Promise<MessageResult> {
  const message = asWebhookMessage(body);
  if (!message) {
    console.error(JSON.stringify({ level: 'warn', msg: 'dropping unknown webhook message', body }));
    return DONE;
  }
  return message.kind === 'fan_out' ? fanOut(store, message.event_id) : attempt(store, message, settings);
}

/** One delivery per endpoint of the event's application, each starting with attempt 1. */
async function fanOut(store: Store, eventId: string): Promise<MessageResult> {
  const event = await store.events.get(eventId);
  if (!event || event.fanned_out_at) return DONE;
  const endpoints = await store.webhookEndpoints.listForApplication(event.org_id, event.app_id);
  await Promise.all(
    endpoints.map(async (endpoint) => {
      const { delivery } = await store.webhookDeliveries.createIfAbsent({
        id: deliveryIdFor(event.id, event.created_at, endpoint.id),
        eventId: event.id,
        endpointId: endpoint.id,
        orgId: event.org_id,
      });
      // A repeated fan-out re-sends attempt 1 of a delivery that never started (its first
      // message may be the one that was lost); a duplicate is refused by the claim.
      if (delivery.status === 'pending' && delivery.attempts === 0) {
        await enqueueAttempt(store, delivery.id, 1, new Date());
      }
    }),
  );
  // Only now: a crash before this line leaves the event to the sweep or the redelivered message.
  await store.events.markFannedOut(event.id);
  return DONE;
}

async function enqueueAttempt(store: Store, deliveryId: string, n: number, due: Date): Promise<void> {
  await eventsQueue(store).send(
    { kind: 'attempt', delivery_id: deliveryId, attempt: n, due_at: due.toISOString() },
    { delaySeconds: delaySecondsUntil(due, new Date()) },
  );
  await store.webhookDeliveries.markEnqueued(deliveryId, n);
}

async function attempt(
  store: Store,
  message: Extract<WebhookMessage, { kind: 'attempt' }>,
  settings: WebhookSettings,
): Promise<MessageResult> {
  const due = new Date(message.due_at);
  if (due.getTime() > Date.now()) {
    // Not due yet: SQS delays cap at 15 minutes, so long waits hop through the queue.
    await eventsQueue(store).send(message, { delaySeconds: delaySecondsUntil(due, new Date()) });
    return DONE;
  }
  const delivery = await store.webhookDeliveries.get(message.delivery_id);
  if (delivery?.status !== 'pending') return DONE;
  if (delivery.attempts >= message.attempt) return alreadyClaimed(store, delivery, message.attempt, settings);
  if (delivery.attempts !== message.attempt - 1) return DONE; // a stale message from an older step

  const endpoint = await store.webhookEndpoints.getSigningTarget(delivery.endpoint_id);
  if (!endpoint) {
    await store.webhookDeliveries.abandon(delivery.id, delivery.attempts, 'endpoint deleted');
    return DONE;
  }
  const event = await store.events.get(delivery.event_id);
  if (!event) {
    await store.webhookDeliveries.abandon(delivery.id, delivery.attempts, 'event expired before delivery');
    return DONE;
  }

  const claimedAt = new Date();
  if (!(await store.webhookDeliveries.claim(delivery.id, message.attempt, claimedAt))) return DONE;

  const result = await deliver({
    url: endpoint.url,
    body: event.body,
    timeoutMs: settings.replyTimeoutMs,
    allowLocalhost: settings.allowLocalhost,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'idv-webhooks/1',
      'Service-Event': VERIFICATION_COMPLETED,
      'Service-Delivery': delivery.id,
      'Service-Signature': signatureHeader(endpoint.secret, event.body),
    },
  });
  await finishAttempt(store, delivery, message.attempt, claimedAt.toISOString(), result, settings);
  return DONE;
}

/**
 * The attempt this message asks for was already claimed. Either the message is a duplicate
 * (nothing to do, or re-send a follow-up message that may have been lost), or the attempt is
 * under way elsewhere (look again later), or its worker died mid-attempt (count it as failed).
 */
async function alreadyClaimed(
  store: Store,
  delivery: WebhookDeliveryState,
  n: number,
  settings: WebhookSettings,
): Promise<MessageResult> {
  if (delivery.attempts > n) return DONE;
  if (delivery.in_flight) {
    const age = Date.now() - Date.parse(delivery.claimed_at ?? '');
    if (age < settings.staleClaimMs) {
      return { kind: 'retry', afterSeconds: Math.ceil((settings.staleClaimMs - age) / 1000) };
    }
    const interrupted: DeliveryResult = {
      ok: false,
      statusCode: null,
      error: 'attempt interrupted: the worker stopped before recording a reply',
    };
    await finishAttempt(store, delivery, n, delivery.claimed_at ?? '', interrupted, settings);
    return DONE;
  }
  if (delivery.next_attempt_at && delivery.enqueued_attempt < n + 1) {
    await enqueueAttempt(store, delivery.id, n + 1, new Date(delivery.next_attempt_at));
  }
  return DONE;
}

/** Records an attempt's outcome, then schedules the next one or reports the delivery dead. */
async function finishAttempt(
  store: Store,
  delivery: WebhookDeliveryState,
  n: number,
  claimedAt: string,
  result: DeliveryResult,
  settings: WebhookSettings,
): Promise<void> {
  const now = new Date();
  const last = n >= MAX_ATTEMPTS;
  const next = result.ok || last ? null : new Date(now.getTime() + retryDelayMs(n + 1, settings.minuteMs));
  const outcome: AttemptOutcome = {
    status: result.ok ? 'succeeded' : last ? 'failed' : 'pending',
    last_status_code: result.statusCode,
    last_error: result.error,
    next_attempt_at: next?.toISOString() ?? null,
  };
  const recorded = await store.webhookDeliveries.recordOutcome(
    delivery.id,
    { attempt: n, claimedAt },
    outcome,
    now,
  );
  if (!recorded) return; // another worker recorded this attempt already
  if (next) {
    await enqueueAttempt(store, delivery.id, n + 1, next);
  } else if (outcome.status === 'failed') {
    await deadLetterQueue(store).send({
      kind: 'delivery_failed',
      delivery_id: delivery.id,
      event_id: delivery.event_id,
      endpoint_id: delivery.endpoint_id,
      attempts: n,
      last_status_code: outcome.last_status_code,
      last_error: outcome.last_error,
      failed_at: now.toISOString(),
    });
  }
}
