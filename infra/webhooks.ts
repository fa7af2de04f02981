import type { Storage } from './storage';

/**
 * The webhook worker: a Lambda subscribed to the `Events` queue (fan-out and delivery
 * attempts; retries are re-enqueued with a delay), plus a sweep every 5 minutes that re-queues
 * events recorded but never queued. Both are linked to the API's image master key (endpoint
 * secrets are sealed with it); the localhost allowance is never set here.
 */
export function createWebhooks(storage: Storage, imageMasterKey: sst.Secret) {
  const fn = {
    runtime: 'nodejs22.x' as const,
    architecture: 'arm64' as const,
    memory: '512 MB' as const,
    link: [storage.table, storage.events, storage.eventsDeadLetter, imageMasterKey],
    environment: {
      TABLE_NAME: storage.table.name,
      EVENTS_QUEUE_URL: storage.events.url,
      EVENTS_DLQ_URL: storage.eventsDeadLetter.url,
    },
  };
  // A batch of 10 is handled concurrently; each attempt waits at most 10 s for the receiver, so
  // 30 s is ample and stays below the queue's 60-second visibility time-out.
  storage.events.subscribe(
    { ...fn, handler: 'functions/webhook-worker.handler', timeout: '30 seconds' },
    { batch: { size: 10, window: '1 second', partialResponses: true } },
  );
  new sst.aws.CronV2('WebhookSweep', {
    schedule: 'rate(5 minutes)',
    function: { ...fn, handler: 'functions/webhook-worker.sweep', timeout: '60 seconds' },
  });
}
