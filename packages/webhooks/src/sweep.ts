import type { Store } from '@idv/store';
import { eventsQueue } from './messages.ts';

/**
 * Re-queues the fan-out of events recorded more than `olderThanMs` ago and still not fanned out
 * (their first message was never sent, or was lost). A fan-out that is merely slow gets a
 * duplicate message, which is harmless. Returns how many events were re-queued.
 */
export async function sweepUnsentEvents(
  store: Store,
  options: { olderThanMs: number; now?: Date; limit?: number },
): Promise<number> {
  const now = options.now ?? new Date();
  const ids = await store.events.listUnsent(new Date(now.getTime() - options.olderThanMs), options.limit);
  for (const id of ids) await eventsQueue(store).send({ kind: 'fan_out', event_id: id });
  return ids.length;
}
