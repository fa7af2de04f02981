import type { JsonQueue, Store } from '@idv/store';

/**
 * What travels on the events queue. The queue only carries ids: the event body and the
 * delivery state live in the table, which is the source of truth.
 */
export type WebhookMessage =
  /** Create one delivery per endpoint of the event's application. */
  | { kind: 'fan_out'; event_id: string }
  /** Make attempt `attempt` of a delivery, not before `due_at` (ISO). */
  | { kind: 'attempt'; delivery_id: string; attempt: number; due_at: string };

/** Sent to the dead-letter queue when a delivery has spent every attempt. */
export interface DeliveryFailedMessage {
  kind: 'delivery_failed';
  delivery_id: string;
  event_id: string;
  endpoint_id: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  failed_at: string;
}

export function eventsQueue(store: Store): JsonQueue<WebhookMessage> {
  return store.eventsQueue as JsonQueue<WebhookMessage>;
}

export function deadLetterQueue(store: Store): JsonQueue<DeliveryFailedMessage> {
  return store.eventsDeadLetterQueue as JsonQueue<DeliveryFailedMessage>;
}

/** Narrows an unknown queue body; anything else is dropped by the worker. */
export function asWebhookMessage(body: unknown): WebhookMessage | null {
  if (!body || typeof body !== 'object') return null;
  const m = body as Record<string, unknown>;
  if (m.kind === 'fan_out' && typeof m.event_id === 'string')
    return { kind: 'fan_out', event_id: m.event_id };
  if (
    m.kind === 'attempt' &&
    typeof m.delivery_id === 'string' &&
    Number.isInteger(m.attempt) &&
    typeof m.due_at === 'string' &&
    !Number.isNaN(Date.parse(m.due_at))
  ) {
    return { kind: 'attempt', delivery_id: m.delivery_id, attempt: m.attempt as number, due_at: m.due_at };
  }
  return null;
}

/** Seconds to delay a message so it is not seen before `due` (the queue caps at 900). */
export function delaySecondsUntil(due: Date, now: Date): number {
  return Math.max(0, Math.ceil((due.getTime() - now.getTime()) / 1000));
}
