import { randomBytes } from 'node:crypto';
import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import { createStore, type Store } from '@idv/store';
import { ensureResources } from '@idv/store/local';
import {
  deadLetterQueue,
  eventsQueue,
  foldBackDeadLetters,
  processMessage,
  publishVerificationCompleted,
  type RunningWorker,
  recoverOverdueDeliveries,
  startWebhookWorker,
  type WebhookSettings,
  webhookSettings,
} from '@idv/webhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { downUrl, type Receiver, sampleVerification, startReceiver, waitFor } from './support.ts';

/**
 * The table is the truth: deliveries whose queue messages were lost (a restart empties the local
 * queue; on AWS a message may sit in the dead-letter queue) are found again and sent, once.
 * This file has a table and queues of its own, so its recovery passes see only its deliveries.
 */
let store: Store;
const receivers: Receiver[] = [];
const workers: RunningWorker[] = [];
const settings: WebhookSettings = webhookSettings({
  allowLocalhost: true,
  minuteMs: 20,
  replyTimeoutMs: 300,
});

beforeAll(async () => {
  const base = inject('storeConfig');
  const suffix = randomBytes(4).toString('hex');
  const own = {
    ...base,
    tableName: `${base.tableName}-recovery-${suffix}`,
    eventsQueueName: `${base.eventsQueueName}-recovery-${suffix}`,
    eventsDeadLetterQueueName: `${base.eventsQueueName}-recovery-${suffix}-dlq`,
    eventsQueueUrl: undefined,
    eventsDeadLetterQueueUrl: undefined,
  };
  const probe = createStore(own);
  store = createStore(await ensureResources(own, probe.clients));
});
afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver(...args: Parameters<typeof startReceiver>) {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

/** Receives and deletes every message: what a restart does to the in-memory local queue. */
async function loseQueuedMessages(): Promise<void> {
  // A short poll may miss messages, so the queue counts as empty after two empty long polls.
  for (let idle = 0; idle < 2; ) {
    const messages = await eventsQueue(store).receive({ waitSeconds: 1 });
    if (messages.length === 0) idle++;
    else idle = 0;
    for (const m of messages) await eventsQueue(store).delete(m.receiptHandle);
  }
}

/** Processes messages until the queue stays empty; each one `copies` times at once. */
async function drain(copies: number): Promise<void> {
  for (let idle = 0; idle < 2; ) {
    const messages = await eventsQueue(store).receive({ waitSeconds: 1 });
    if (messages.length === 0) {
      idle++;
      continue;
    }
    idle = 0;
    for (const m of messages) {
      await Promise.all(Array.from({ length: copies }, () => processMessage(store, m.body, settings)));
      await eventsQueue(store).delete(m.receiptHandle);
    }
  }
}

/** `count` events fanned out to one endpoint at `url`, every queue message then lost. */
async function pendingWithLostMessages(url: string, count: number) {
  const suffix = randomBytes(4).toString('hex');
  const org = { orgId: `org_rec${suffix}`, appId: `app_rec${suffix}` };
  const endpoint = await store.webhookEndpoints.create({ ...org, url, description: '' });
  for (let i = 0; i < count; i++) {
    await publishVerificationCompleted(store, { ...org, mode: 'test', verification: sampleVerification() });
  }
  // Fan out (deliveries created, attempt-1 messages queued), then lose every message.
  await waitFor('the fan-outs', async () => {
    const messages = await eventsQueue(store).receive({ waitSeconds: 1 });
    for (const m of messages) {
      if ((m.body as { kind?: string }).kind === 'fan_out') await processMessage(store, m.body, settings);
      await eventsQueue(store).delete(m.receiptHandle);
    }
    return (await store.webhookDeliveries.listForEndpoint(endpoint.id)).length === count;
  });
  await loseQueuedMessages();
  const deliveries = await store.webhookDeliveries.listForEndpoint(endpoint.id);
  expect(deliveries).toHaveLength(count);
  return { endpoint, deliveries };
}

describe('webhook deliveries recovered from the table', () => {
  it('the same deliveries recovered twice at once, each message handled twice at once, are sent once', async () => {
    const hook = await receiver();
    const { deliveries } = await pendingWithLostMessages(hook.url, 3);
    const [a, b] = await Promise.all([
      recoverOverdueDeliveries(store, settings),
      recoverOverdueDeliveries(store, settings),
    ]);
    expect(a.requeued).toBe(3);
    expect(b.requeued).toBe(3);
    await drain(2);
    const sentIds = hook.requests.map((r) => r.headers['service-delivery']);
    expect(sentIds.sort()).toEqual(deliveries.map((d) => d.id).sort());
    for (const d of deliveries) {
      expect(await store.webhookDeliveries.get(d.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
    }
  });

  it('folds attempt messages back from the dead-letter queue and leaves failure reports there', async () => {
    const hook = await receiver();
    const { deliveries } = await pendingWithLostMessages(hook.url, 1);
    const delivery = deliveries[0]!;
    const dlq = store.eventsDeadLetterQueue;
    await dlq.send({
      kind: 'attempt',
      delivery_id: delivery.id,
      attempt: 1,
      due_at: new Date().toISOString(),
    });
    await deadLetterQueue(store).send({
      kind: 'delivery_failed',
      delivery_id: 'whd_report',
      event_id: 'evt_report',
      endpoint_id: 'whe_report',
      attempts: 8,
      last_status_code: null,
      last_error: 'connection refused',
      failed_at: new Date().toISOString(),
    });
    expect(await foldBackDeadLetters(store)).toBe(1);
    await drain(1);
    expect(hook.requests.map((r) => r.headers['service-delivery'])).toEqual([delivery.id]);
    // The report is still in the dead-letter queue (hidden only for its visibility time-out).
    const attributes = await store.clients.sqs.send(
      new GetQueueAttributesCommand({
        QueueUrl: store.config.eventsDeadLetterQueueUrl,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    const kept =
      Number(attributes.Attributes?.ApproximateNumberOfMessages ?? 0) +
      Number(attributes.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0);
    expect(kept).toBe(1);
  });

  // The worker tests come last and share one worker: a worker stopped mid-poll can leave the
  // local queue holding a message invisible for its time-out, which would stall a later test.
  it('a worker starting with overdue deliveries and an empty queue sends each once', async () => {
    const hook = await receiver();
    const { endpoint, deliveries } = await pendingWithLostMessages(hook.url, 4);
    // One of them is further along: attempt 1 failed, attempt 2 was due a minute ago.
    const further = deliveries[0]!;
    const claimedAt = new Date(Date.now() - 120_000);
    expect(await store.webhookDeliveries.claim(further.id, 1, claimedAt)).toBe(true);
    await store.webhookDeliveries.recordOutcome(
      further.id,
      { attempt: 1, claimedAt: claimedAt.toISOString() },
      {
        status: 'pending',
        last_status_code: 503,
        last_error: 'receiver answered 503',
        next_attempt_at: new Date(Date.now() - 60_000).toISOString(),
      },
    );
    expect(hook.requests).toHaveLength(0);

    workers.push(
      startWebhookWorker(store, {
        ...settings,
        pollWaitSeconds: 1,
        sweepIntervalMs: 0,
        recoverOnStart: true,
      }),
    );
    await waitFor('4 deliveries', async () => {
      const all = await store.webhookDeliveries.listForEndpoint(endpoint.id);
      return all.every((d) => d.status === 'succeeded');
    });
    const sentIds = hook.requests.map((r) => r.headers['service-delivery']);
    expect(sentIds.sort()).toEqual(deliveries.map((d) => d.id).sort());
    expect(await store.webhookDeliveries.get(further.id)).toMatchObject({ status: 'succeeded', attempts: 2 });
    // Nothing left to recover: finished deliveries lose their markers.
    expect(await recoverOverdueDeliveries(store, settings)).toEqual({ examined: 0, requeued: 0, cleared: 0 });
  });

  it('with the receiver down for the whole (scaled) schedule, reaches failed after 8 attempts', async () => {
    const url = await downUrl();
    const suffix = randomBytes(4).toString('hex');
    const org = { orgId: `org_down${suffix}`, appId: `app_down${suffix}` };
    const endpoint = await store.webhookEndpoints.create({ ...org, url, description: '' });
    expect(workers).toHaveLength(1); // the worker started above keeps running
    await publishVerificationCompleted(store, { ...org, mode: 'test', verification: sampleVerification() });
    const failed = await waitFor(
      'the delivery to fail',
      async () => {
        const [d] = await store.webhookDeliveries.listForEndpoint(endpoint.id);
        return d?.status === 'failed' ? d : null;
      },
      90_000,
    );
    expect(failed).toMatchObject({ attempts: 8, last_error: 'connection refused', next_attempt_at: null });
  }, 120_000);
});
