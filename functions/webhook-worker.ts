/**
 * AWS Lambda entries of the webhook worker: `handler` consumes the events queue (fan-out and
 * delivery attempts, partial batch failures); `sweep` runs on a schedule and re-queues events
 * that were recorded but never queued. Production settings only (no localhost, real minutes).
 */
import { createStore, storeConfigFromEnv } from '@idv/store';
import { webhookQueueHandler, webhookSweepHandler } from '@idv/webhooks';
import { applyLinkedSecrets } from './linked-secrets.ts';

applyLinkedSecrets();
const store = createStore(storeConfigFromEnv());

export const handler = webhookQueueHandler(store);
export const sweep = webhookSweepHandler(store);
