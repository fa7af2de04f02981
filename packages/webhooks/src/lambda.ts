import type { Store } from '@idv/store';
import { processMessage } from './process.ts';
import { type WebhookSettings, webhookSettings } from './settings.ts';
import { webhookRecoveryPass } from './worker.ts';

/** The parts of an SQS Lambda event the worker reads. */
export interface SqsBatch {
  Records: { messageId: string; body: string }[];
}

/** Partial batch response: only the listed messages are retried by Lambda. */
export interface SqsBatchResponse {
  batchItemFailures: { itemIdentifier: string }[];
}

/**
 * The worker as an SQS-triggered Lambda: messages of a batch are handled concurrently; those
 * that failed or must be looked at again are reported, the rest are deleted by Lambda.
 */
export function webhookQueueHandler(store: Store, overrides: Partial<WebhookSettings> = {}) {
  const settings = webhookSettings(overrides);
  return async (batch: SqsBatch): Promise<SqsBatchResponse> => {
    const failures: { itemIdentifier: string }[] = [];
    await Promise.all(
      batch.Records.map(async (record) => {
        try {
          let body: unknown = null;
          try {
            body = JSON.parse(record.body);
          } catch {}
          const result = await processMessage(store, body, settings);
          if (result.kind === 'retry') failures.push({ itemIdentifier: record.messageId });
        } catch (error) {
          console.error(
            JSON.stringify({
              level: 'error',
              msg: 'webhook message failed',
              id: record.messageId,
              error: String(error),
            }),
          );
          failures.push({ itemIdentifier: record.messageId });
        }
      }),
    );
    return { batchItemFailures: failures };
  };
}

/**
 * The scheduled sweep as a Lambda (every few minutes): events never fanned out, dead letters
 * folded back, overdue deliveries re-sent from the table (see `webhookRecoveryPass`).
 */
export function webhookSweepHandler(store: Store, overrides: Partial<WebhookSettings> = {}) {
  const settings = webhookSettings(overrides);
  return async (): Promise<{ requeued: number; deadLetters: number; deliveries: number }> => {
    const pass = await webhookRecoveryPass(store, settings, { overdueByMs: settings.minuteMs });
    return { requeued: pass.events, deadLetters: pass.deadLetters, deliveries: pass.deliveries };
  };
}
