import type { Store } from '@idv/store';
import { eventsQueue } from './messages.ts';
import { processMessage } from './process.ts';
import { foldBackDeadLetters, recoverOverdueDeliveries } from './recover.ts';
import { type WebhookSettings, webhookSettings } from './settings.ts';
import { sweepUnsentEvents } from './sweep.ts';

export interface WorkerOptions extends Partial<WebhookSettings> {
  /** Long-poll wait per receive, seconds (SQS allows up to 20). */
  pollWaitSeconds?: number;
  /**
   * How often the worker sweeps for events never fanned out and recovers overdue deliveries
   * (and folds the dead-letter queue back); 0 disables the periodic pass.
   */
  sweepIntervalMs?: number;
  /** Run the recovery pass once at start (default): what a restart left pending is resent. */
  recoverOnStart?: boolean;
}

export interface RunningWorker {
  /** Stops polling, waits for the messages in hand (at most one reply time-out), resolves. */
  stop(): Promise<void>;
}

/** Back-off after a failed receive (queue unreachable), so the loop does not spin. */
const RECEIVE_ERROR_BACKOFF_MS = 1_000;

/**
 * The webhook worker as a long-running loop (local runs and tests): long-polls the events
 * queue, handles up to 10 messages at a time concurrently, and sweeps for events that were
 * recorded but never queued. On AWS the same `processMessage` runs in a Lambda instead.
 */
export function startWebhookWorker(store: Store, options: WorkerOptions = {}): RunningWorker {
  const settings = webhookSettings(options);
  const queue = eventsQueue(store);
  const abort = new AbortController();
  let stopped = false;

  const handle = async (message: Awaited<ReturnType<typeof queue.receive>>[number]) => {
    try {
      const result = await processMessage(store, message.body, settings);
      if (result.kind === 'done') await queue.delete(message.receiptHandle);
      else await queue.changeVisibility(message.receiptHandle, result.afterSeconds);
    } catch (error) {
      // Left in the queue: it comes back after the visibility time-out.
      console.error(
        JSON.stringify({
          level: 'error',
          msg: 'webhook message failed',
          id: message.messageId,
          error: String(error),
        }),
      );
    }
  };

  const loop = (async () => {
    while (!stopped) {
      try {
        const messages = await queue.receive({
          waitSeconds: options.pollWaitSeconds ?? 20,
          abortSignal: abort.signal,
        });
        await Promise.all(messages.map(handle));
      } catch (error) {
        if (stopped) break;
        console.error(
          JSON.stringify({ level: 'error', msg: 'webhook queue receive failed', error: String(error) }),
        );
        await new Promise((r) => setTimeout(r, RECEIVE_ERROR_BACKOFF_MS));
      }
    }
  })();

  const report = (what: string) => (error: unknown) =>
    console.error(JSON.stringify({ level: 'error', msg: `webhook ${what} failed`, error: String(error) }));
  // At start nothing of this instance is on its way, so anything due is overdue; later passes
  // leave one retry minute to the message that is probably in the queue already.
  if (options.recoverOnStart ?? true) {
    webhookRecoveryPass(store, settings, { overdueByMs: 0 }).catch(report('recovery at start'));
  }
  // Every retry minute, within 5 s to 60 s: once a minute with the spec's schedule, more often
  // when WEBHOOKS_RETRY_MINUTE_MS shrinks it, so that a delivery whose delayed message a
  // restart lost is resent about on time rather than up to a (real) minute late. The grace is
  // at least 5 s because queue delays are whole seconds: a message due now may be 1 s away.
  const sweepEvery = options.sweepIntervalMs ?? Math.min(60_000, Math.max(5_000, settings.minuteMs));
  const grace = Math.max(settings.minuteMs, 5_000);
  const sweeper =
    sweepEvery > 0
      ? setInterval(() => {
          webhookRecoveryPass(store, settings, { overdueByMs: grace }).catch(report('sweep'));
        }, sweepEvery)
      : undefined;
  sweeper?.unref();

  return {
    async stop() {
      stopped = true;
      if (sweeper) clearInterval(sweeper);
      abort.abort();
      await loop;
    },
  };
}

/**
 * What the schedule runs (the worker's interval locally, the sweep Lambda on AWS): events never
 * fanned out, dead letters folded back, and overdue deliveries re-sent from the table.
 */
export async function webhookRecoveryPass(
  store: Store,
  settings: WebhookSettings,
  options: { overdueByMs: number },
): Promise<{ events: number; deadLetters: number; deliveries: number }> {
  const events = await sweepUnsentEvents(store, { olderThanMs: settings.sweepAfterMs });
  const deadLetters = await foldBackDeadLetters(store);
  const recovered = await recoverOverdueDeliveries(store, settings, options);
  return { events, deadLetters, deliveries: recovered.requeued };
}
