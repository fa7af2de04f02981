import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createStore, type Store } from '@idv/store';
import {
  eventsQueue,
  processMessage,
  publishVerificationCompleted,
  sweepUnsentEvents,
  type WebhookSettings,
  webhookQueueHandler,
  webhookSettings,
} from '@idv/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestOrganisation } from '../support/stack.ts';
import { isolatedStore, type Receiver, sampleVerification, startReceiver } from './support.ts';

/**
 * No worker loop here: each test drives the queue by hand, so it can hand every message to
 * the worker twice at once (what SQS's at-least-once delivery may do), or stage a crash.
 */
let store: Store;
const receivers: Receiver[] = [];
const settings: WebhookSettings = webhookSettings({
  allowLocalhost: true,
  minuteMs: 50,
  replyTimeoutMs: 300,
});

beforeAll(async () => {
  store = await isolatedStore();
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver() {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

type QueueMessages = Awaited<ReturnType<ReturnType<typeof eventsQueue>['receive']>>;

/** Receives batches until the queue stays empty twice in a row; `handle` gets each batch. */
async function receiveUntilEmpty(handle: (messages: QueueMessages) => Promise<void>): Promise<void> {
  for (let idle = 0; idle < 2; ) {
    const messages = await eventsQueue(store).receive({ waitSeconds: 1 });
    if (messages.length === 0) {
      idle++;
      continue;
    }
    idle = 0;
    await handle(messages);
  }
}

/** Receives until the queue stays empty; each message is processed `copies` times concurrently. */
async function drain(copies: number): Promise<number> {
  let processed = 0;
  await receiveUntilEmpty(async (messages) => {
    for (const m of messages) {
      await Promise.all(Array.from({ length: copies }, () => processMessage(store, m.body, settings)));
      await eventsQueue(store).delete(m.receiptHandle);
      processed++;
    }
  });
  return processed;
}

async function endpointFor(org: { orgId: string; appId: string }, url: string) {
  return store.webhookEndpoints.create({ orgId: org.orgId, appId: org.appId, url, description: '' });
}

/** A new organisation with one endpoint (a live receiver), and one event published for it. */
async function publishedToNewEndpoint() {
  const org = await createTestOrganisation();
  const hook = await receiver();
  const endpoint = await endpointFor(org, hook.url);
  const { eventId } = await publishVerificationCompleted(store, {
    orgId: org.orgId,
    appId: org.appId,
    mode: 'test',
    verification: sampleVerification(),
  });
  return { hook, endpoint, eventId };
}

describe('webhook durability', () => {
  it('never sends twice when queue messages arrive twice (even concurrently)', async () => {
    const { hook, endpoint, eventId } = await publishedToNewEndpoint();
    // A second fan-out message for the same event, as a redelivery or a sweep would send.
    await eventsQueue(store).send({ kind: 'fan_out', event_id: eventId });
    await drain(2);

    expect(hook.requests).toHaveLength(1);
    const [delivery] = await store.webhookDeliveries.listForEndpoint(endpoint.id);
    expect(delivery).toMatchObject({ event_id: eventId, status: 'succeeded', attempts: 1 });

    // A late copy of the attempt message after success sends nothing either.
    await eventsQueue(store).send({
      kind: 'attempt',
      delivery_id: delivery!.id,
      attempt: 1,
      due_at: new Date().toISOString(),
    });
    await drain(1);
    expect(hook.requests).toHaveLength(1);
  });

  it('sends an event that was recorded but never queued, once the sweep finds it', async () => {
    const org = await createTestOrganisation();
    const hook = await receiver();
    await endpointFor(org, hook.url);
    // The queue is unreachable when the event is published: publishing still succeeds.
    const broken = createStore({
      ...store.config,
      eventsQueueUrl: undefined,
      eventsQueueName: `${store.config.eventsQueueName}-missing`,
    });
    // Two days old, so that the sweep below (bounded to that age) sees only this event.
    const publishedAt = new Date(Date.now() - 2 * 86_400_000);
    const { eventId } = await publishVerificationCompleted(
      broken,
      {
        orgId: org.orgId,
        appId: org.appId,
        mode: 'live',
        verification: sampleVerification({ mode: 'live' }),
      },
      { now: publishedAt },
    );
    expect((await store.events.get(eventId))?.fanned_out_at).toBeNull();
    expect(await drain(1)).toBe(0);
    expect(hook.requests).toHaveLength(0);

    const requeued = await sweepUnsentEvents(store, {
      olderThanMs: 60_000,
      now: new Date(publishedAt.getTime() + 120_000),
    });
    expect(requeued).toBe(1);
    await drain(1);
    expect(hook.requests).toHaveLength(1);
    const body = JSON.parse(hook.requests[0]!.body);
    expect(body).toMatchObject({
      id: eventId,
      created_at: publishedAt.toISOString(),
      data: { mode: 'live' },
    });
    expect((await store.events.get(eventId))?.fanned_out_at).not.toBeNull();
  });

  it('recovers a delivery whose worker died mid-attempt, and leaves one under way alone', async () => {
    const org = await createTestOrganisation();
    const hook = await receiver();
    const endpoint = await endpointFor(org, hook.url);
    await publishVerificationCompleted(store, {
      orgId: org.orgId,
      appId: org.appId,
      mode: 'test',
      verification: sampleVerification(),
    });
    // Fan out by hand, keeping the attempt-1 message.
    const [fanOut] = await eventsQueue(store).receive({ waitSeconds: 1 });
    expect(await processMessage(store, fanOut!.body, settings)).toEqual({ kind: 'done' });
    await eventsQueue(store).delete(fanOut!.receiptHandle);
    const [attemptMessage] = await eventsQueue(store).receive({ waitSeconds: 1 });
    const [delivery] = await store.webhookDeliveries.listForEndpoint(endpoint.id);

    // Another worker claimed attempt 1 a moment ago: this copy waits instead of sending.
    expect(await store.webhookDeliveries.claim(delivery!.id, 1, new Date())).toBe(true);
    const underWay = await processMessage(store, attemptMessage!.body, settings);
    expect(underWay.kind).toBe('retry');
    expect(hook.requests).toHaveLength(0);

    // That worker then died: once its claim is older than the stale threshold, the attempt is
    // counted as failed and attempt 2 is scheduled.
    await store.clients.doc.send(
      new UpdateCommand({
        TableName: store.config.tableName,
        Key: { pk: `WHD#${delivery!.id}`, sk: 'WHD' },
        UpdateExpression: 'SET claimed_at = :old',
        ExpressionAttributeValues: {
          ':old': new Date(Date.now() - settings.staleClaimMs - 1000).toISOString(),
        },
      }),
    );
    expect(await processMessage(store, attemptMessage!.body, settings)).toEqual({ kind: 'done' });
    await eventsQueue(store).delete(attemptMessage!.receiptHandle);
    const interrupted = await store.webhookDeliveries.get(delivery!.id);
    expect(interrupted).toMatchObject({ status: 'pending', attempts: 1, in_flight: false });
    expect(interrupted!.last_error).toMatch(/^attempt interrupted/);
    expect(interrupted!.next_attempt_at).not.toBeNull();

    await drain(1);
    expect(hook.requests).toHaveLength(1);
    expect(await store.webhookDeliveries.get(delivery!.id)).toMatchObject({
      status: 'succeeded',
      attempts: 2,
      last_status_code: 200,
    });
  });

  it('reaches due times beyond the queue’s 15-minute delay limit by re-enqueueing, without attempting early', async () => {
    const org = await createTestOrganisation();
    const hook = await receiver();
    const endpoint = await endpointFor(org, hook.url);
    const { delivery } = await store.webhookDeliveries.createIfAbsent({
      id: 'whd_00000000latetest0000000',
      eventId: 'evt_none',
      endpointId: endpoint.id,
      orgId: org.orgId,
    });
    const due = new Date(Date.now() + 64 * 60_000); // the last retry's delay
    const message = { kind: 'attempt', delivery_id: delivery.id, attempt: 1, due_at: due.toISOString() };
    expect(await processMessage(store, message, settings)).toEqual({ kind: 'done' });
    // Re-sent delayed (900 s): nothing to receive now, nothing sent, the delivery untouched.
    expect(await eventsQueue(store).receive({ waitSeconds: 1 })).toEqual([]);
    expect(hook.requests).toHaveLength(0);
    expect(await store.webhookDeliveries.get(delivery.id)).toMatchObject({ attempts: 0, status: 'pending' });
  });

  it('runs the same way as the Lambda SQS handler, reporting only messages to retry', async () => {
    const { hook, endpoint, eventId } = await publishedToNewEndpoint();
    const handler = webhookQueueHandler(store, settings);
    // Hand everything in the queue to the handler as Lambda would, until it is empty.
    const seen: string[] = [];
    await receiveUntilEmpty(async (messages) => {
      const records = messages.map((m) => ({ messageId: m.messageId, body: JSON.stringify(m.body) }));
      records.push({ messageId: 'not-json', body: '{oops' });
      expect(await handler({ Records: records })).toEqual({ batchItemFailures: [] });
      for (const m of messages) {
        seen.push((m.body as { kind: string }).kind);
        await eventsQueue(store).delete(m.receiptHandle);
      }
    });
    expect(seen).toEqual(['fan_out', 'attempt']);
    expect(hook.requests).toHaveLength(1);
    expect(JSON.parse(hook.requests[0]!.body).id).toBe(eventId);
    expect((await store.webhookDeliveries.listForEndpoint(endpoint.id))[0]?.status).toBe('succeeded');
  });

  it('drops messages it does not understand', async () => {
    expect(await processMessage(store, { kind: 'something_else' }, settings)).toEqual({ kind: 'done' });
    expect(await processMessage(store, null, settings)).toEqual({ kind: 'done' });
  });
});
