import type { Store } from '@idv/store';
import { eventsQueue } from './messages.ts';
import { processMessage } from './process.ts';
import { type WebhookSettings, webhookSettings } from './settings.ts';
import { sweepUnsentEvents } from './sweep.ts';

export interface WorkerOptions extends Partial<WebhookSettings> {
  /** Long-poll wait per receive, seconds (SQS allows up to 20). */
  pollWaitSeconds?: number;
  /** How often the worker sweeps for events never fanned out; 0 disables the sweep. */
  sweepIntervalMs?: number;
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

  const sweepEvery = options.sweepIntervalMs ?? 60_000;
  const sweeper =
    sweepEvery > 0
      ? setInterval(() => {
          sweepUnsentEvents(store, { olderThanMs: settings.sweepAfterMs }).catch((error) =>
            console.error(
              JSON.stringify({ level: 'error', msg: 'webhook sweep failed', error: String(error) }),
            ),
          );
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
