import { createHmac } from 'node:crypto';
import { VerificationSchema } from '@idv/core';
import type { Store, WebhookDeliveryState } from '@idv/store';
import {
  deadLetterQueue,
  publishVerificationCompleted,
  type RunningWorker,
  retryDelayMs,
  startWebhookWorker,
  verifyWebhookSignature,
} from '@idv/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestOrganisation, testApp } from '../support/stack.ts';
import {
  downUrl,
  isolatedStore,
  type Receiver,
  sampleVerification,
  startReceiver,
  waitFor,
} from './support.ts';

/** The schedule's minute shrunk to 50 ms; SQS delays are whole seconds, so each wait is ≥ 1 s. */
const MINUTE_MS = 50;
/** The reply time-out shrunk from 10 s, so a hanging receiver costs 8 × 0.3 s. */
const REPLY_TIMEOUT_MS = 300;

let store: Store;
let worker: RunningWorker;
const receivers: Receiver[] = [];

beforeAll(async () => {
  store = await isolatedStore();
  worker = startWebhookWorker(store, {
    allowLocalhost: true,
    minuteMs: MINUTE_MS,
    replyTimeoutMs: REPLY_TIMEOUT_MS,
    pollWaitSeconds: 1,
    sweepIntervalMs: 0,
  });
});

afterAll(async () => {
  await worker?.stop();
  await Promise.all(receivers.map((r) => r.close()));
});

async function receiver(...args: Parameters<typeof startReceiver>) {
  const r = await startReceiver(...args);
  receivers.push(r);
  return r;
}

// The tests poll the deliveries list; the per-key rate limit is not what they are about.
const app = () =>
  testApp({ store, webhooks: { allowLocalhost: true }, limits: { perKeyPerMinute: 100_000 } });

async function createEndpoint(key: string, url: string): Promise<{ id: string; secret: string }> {
  const res = await app().request('/v1/webhooks', {
    method: 'POST',
    body: JSON.stringify({ url, description: 'test receiver' }),
    ...bearer(key, { 'content-type': 'application/json' }),
  });
  expect(res.status).toBe(201);
  return res.json();
}

async function deliveriesOf(key: string, endpointId: string): Promise<WebhookDeliveryState[]> {
  const res = await app().request(`/v1/webhooks/${endpointId}/deliveries`, bearer(key));
  expect(res.status).toBe(200);
  return (await res.json()).data;
}

describe('webhook delivery against real local receivers', () => {
  it('sends the signed event with exact headers and body, to test and live events both', async () => {
    const org = await createTestOrganisation();
    const hook = await receiver();
    const endpoint = await createEndpoint(org.testKey, hook.url);
    const verification = VerificationSchema.parse(sampleVerification({ mode: 'live' }));

    const { eventId } = await publishVerificationCompleted(store, {
      orgId: org.orgId,
      appId: org.appId,
      mode: 'live',
      verification,
    });
    await publishVerificationCompleted(store, {
      orgId: org.orgId,
      appId: org.appId,
      mode: 'test',
      verification: { ...verification, mode: 'test' },
    });
    await waitFor('two deliveries', () => hook.requests.length >= 2);

    const request = hook.requests.find((r) => JSON.parse(r.body).id === eventId)!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/hooks/idv');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['service-event']).toBe('verification.completed');
    expect(request.headers['service-delivery']).toMatch(/^whd_[a-z0-9]{6,}$/);

    // The signature: checked by the receiver helper, and recomputed here independently.
    const header = String(request.headers['service-signature']);
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
    expect(match).not.toBeNull();
    expect(Math.abs(Number(match![1]) - Date.now() / 1000)).toBeLessThan(300);
    expect(createHmac('sha256', endpoint.secret).update(`${match![1]}.${request.body}`).digest('hex')).toBe(
      match![2],
    );
    const event = verifyWebhookSignature(request.body, header, endpoint.secret);
    expect(() => verifyWebhookSignature(request.body, header, 'whsec_wrong')).toThrow();

    expect(event).toEqual({
      id: eventId,
      type: 'verification.completed',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data: { ...verification, mode: 'live', app_id: org.appId, final_verdict: null },
    });
    expect(Object.keys(event as object)).toEqual(['id', 'type', 'created_at', 'data']);
    const modes = hook.requests.map((r) => JSON.parse(r.body).data.mode).sort();
    expect(modes).toEqual(['live', 'test']);

    const deliveries = await waitFor('both recorded as succeeded', async () => {
      const list = await deliveriesOf(org.testKey, endpoint.id);
      return list.length === 2 && list.every((d) => d.status === 'succeeded') ? list : null;
    });
    const delivery = deliveries.find((d) => d.event_id === eventId)!;
    expect(delivery).toEqual({
      id: request.headers['service-delivery'],
      event_id: eventId,
      endpoint_id: endpoint.id,
      status: 'succeeded',
      attempts: 1,
      last_status_code: 200,
      last_error: null,
      next_attempt_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it('sends the review event again with final_verdict set, under a new event id', async () => {
    const org = await createTestOrganisation();
    const hook = await receiver();
    await createEndpoint(org.liveKey, hook.url);
    const verification = sampleVerification();
    const first = await publishVerificationCompleted(store, {
      orgId: org.orgId,
      appId: org.appId,
      mode: 'test',
      verification,
    });
    const second = await publishVerificationCompleted(store, {
      orgId: org.orgId,
      appId: org.appId,
      mode: 'test',
      verification: { ...verification, final_verdict: 'verified' },
    });
    await waitFor('two events', () => hook.requests.length >= 2);
    const byId = new Map(hook.requests.map((r) => [JSON.parse(r.body).id, JSON.parse(r.body)]));
    expect(byId.get(first.eventId).data.final_verdict).toBeNull();
    expect(byId.get(second.eventId).data.final_verdict).toBe('verified');
    expect(byId.get(second.eventId).data.verdict).toBe('review');
  });

  it('retries failing receivers on the schedule: 500, hanging and down end failed after 8 attempts, a recovering one succeeds', async () => {
    const org = await createTestOrganisation();
    const failing = await receiver(() => 'error');
    const hanging = await receiver(() => 'hang');
    const recovering = await receiver((n) => (n <= 3 ? 'error' : 'ok'));
    const down = await downUrl();
    const endpoints = {
      failing: await createEndpoint(org.testKey, failing.url),
      hanging: await createEndpoint(org.testKey, hanging.url),
      recovering: await createEndpoint(org.testKey, recovering.url),
      down: await createEndpoint(org.testKey, down),
    };
    const { eventId } = await publishVerificationCompleted(store, {
      orgId: org.orgId,
      appId: org.appId,
      mode: 'test',
      verification: sampleVerification(),
    });

    const finished = async (endpointId: string) =>
      waitFor(
        `delivery to ${endpointId} to finish`,
        async () => {
          const [d] = await deliveriesOf(org.testKey, endpointId);
          return d && d.status !== 'pending' ? d : null;
        },
        45_000,
      );
    const [failed, hung, recovered, unreachable] = await Promise.all([
      finished(endpoints.failing.id),
      finished(endpoints.hanging.id),
      finished(endpoints.recovering.id),
      finished(endpoints.down.id),
    ]);

    expect(failed).toMatchObject({
      status: 'failed',
      attempts: 8,
      last_status_code: 500,
      next_attempt_at: null,
    });
    expect(failed!.last_error).toBe('receiver answered 500');
    expect(hung).toMatchObject({ status: 'failed', attempts: 8, last_status_code: null });
    expect(hung!.last_error).toMatch(/^timeout: no reply within 0.3 s$/);
    expect(unreachable).toMatchObject({ status: 'failed', attempts: 8, last_status_code: null });
    expect(unreachable!.last_error).toBe('connection refused');
    expect(recovered).toMatchObject({
      status: 'succeeded',
      attempts: 4,
      last_status_code: 200,
      last_error: null,
    });

    expect(failing.requests).toHaveLength(8);
    expect(hanging.requests).toHaveLength(8);
    expect(recovering.requests).toHaveLength(4);
    for (const r of [failing, hanging, recovering]) {
      // The same event (same id, same bytes) on every attempt, each one freshly signed.
      expect(new Set(r.requests.map((q) => q.body)).size).toBe(1);
      expect(JSON.parse(r.requests[0]!.body).id).toBe(eventId);
      expect(new Set(r.requests.map((q) => q.headers['service-delivery'])).size).toBe(1);
      // Attempt n never comes before its scheduled delay after attempt n-1.
      for (let n = 2; n <= r.requests.length; n++) {
        const gap = r.requests[n - 1]!.at - r.requests[n - 2]!.at;
        expect(gap, `gap before attempt ${n}`).toBeGreaterThanOrEqual(retryDelayMs(n, MINUTE_MS));
      }
    }

    // Each delivery that spent its attempts is reported on the dead-letter queue.
    const deadIds = new Set<string>();
    await waitFor('three dead letters', async () => {
      for (const m of await deadLetterQueue(store).receive({ waitSeconds: 1 })) {
        if (m.body) deadIds.add(m.body.delivery_id);
        await deadLetterQueue(store).delete(m.receiptHandle);
      }
      return deadIds.size >= 3;
    });
    expect([...deadIds].sort()).toEqual([failed!.id, hung!.id, unreachable!.id].sort());
  });

  it('stops delivering to a deleted endpoint', async () => {
    const org = await createTestOrganisation();
    const hook = await receiver(() => 'error');
    const endpoint = await createEndpoint(org.testKey, hook.url);
    await publishVerificationCompleted(store, {
      orgId: org.orgId,
      appId: org.appId,
      mode: 'test',
      verification: sampleVerification(),
    });
    const [first] = await waitFor('the first attempt to be recorded', async () => {
      const list = await deliveriesOf(org.testKey, endpoint.id);
      return list[0]?.attempts === 1 && list[0].next_attempt_at ? list : null;
    });
    const res = await app().request(`/v1/webhooks/${endpoint.id}`, {
      method: 'DELETE',
      ...bearer(org.testKey),
    });
    expect(res.status).toBe(200);

    const ended = await waitFor('the delivery to end', async () => {
      const d = await store.webhookDeliveries.get(first!.id);
      return d?.status === 'failed' ? d : null;
    });
    expect(ended).toMatchObject({ attempts: 1, last_error: 'endpoint deleted', next_attempt_at: null });
    expect(hook.requests).toHaveLength(1);
    expect((await app().request(`/v1/webhooks/${endpoint.id}/deliveries`, bearer(org.testKey))).status).toBe(
      404,
    );
  });

  it('lists at most the last 50 deliveries, newest first', async () => {
    const org = await createTestOrganisation();
    const endpoint = await createEndpoint(org.testKey, 'http://127.0.0.1:9/unused');
    const start = Date.parse('2026-11-21T08:00:00.000Z');
    const ids: string[] = [];
    for (let i = 0; i < 55; i++) {
      const id = `whd_${String(i).padStart(8, '0')}test`;
      ids.push(id);
      await store.webhookDeliveries.createIfAbsent(
        { id, eventId: `evt_${i}`, endpointId: endpoint.id, orgId: org.orgId },
        new Date(start + i * 1000),
      );
    }
    const listed = await deliveriesOf(org.testKey, endpoint.id);
    expect(listed).toHaveLength(50);
    expect(listed.map((d) => d.id)).toEqual(ids.slice(5).reverse());
    expect(Object.keys(listed[0]!).sort()).toEqual(
      [
        'attempts',
        'created_at',
        'endpoint_id',
        'event_id',
        'id',
        'last_error',
        'last_status_code',
        'next_attempt_at',
        'status',
        'updated_at',
      ].sort(),
    );
  });
});
