import { startWebhookWorker, webhookEventPublisher } from '@idv/webhooks';
import { verifyWebhookSignature } from '@idv/webhooks/receiver';
import { afterAll, describe, expect, it } from 'vitest';
import { documentPhoto } from '../support/documents.ts';
import { bearer, createTestOrganisation } from '../support/stack.ts';
import { imageForm, verifyApp } from '../support/verify-app.ts';
import { isolatedStore, startReceiver, waitFor } from '../webhooks/support.ts';

describe('a verification reaches the customer by webhook', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('POST /v1/verify → event queued → worker → signed delivery with the same Verification', async () => {
    const store = await isolatedStore();
    const receiver = await startReceiver();
    const worker = startWebhookWorker(store, { allowLocalhost: true });
    cleanups.push(
      () => receiver.close(),
      () => worker.stop(),
    );
    const app = await verifyApp({
      store,
      events: webhookEventPublisher(store),
      webhooks: { allowLocalhost: true },
    });
    const org = await createTestOrganisation();

    const endpoint = await app.request('/v1/webhooks', {
      method: 'POST',
      body: JSON.stringify({ url: receiver.url, description: 'e2e' }),
      ...bearer(org.liveKey, { 'content-type': 'application/json' }),
    });
    expect(endpoint.status).toBeLessThan(300);
    const { secret } = await endpoint.json();

    const res = await app.request('/v1/verify', {
      method: 'POST',
      body: imageForm({ front: await documentPhoto('passport') }),
      ...bearer(org.testKey),
    });
    expect(res.status).toBe(200);
    const verification = await res.json();

    const request = await waitFor('the webhook delivery', () => receiver.requests[0]);
    expect(request.headers['service-event']).toBe('verification.completed');
    const event = verifyWebhookSignature(
      request.body,
      String(request.headers['service-signature']),
      secret,
    ) as {
      id: string;
      data: Record<string, unknown>;
    };
    expect(event.id).toMatch(/^evt_/);
    expect(event.data).toEqual({ ...verification, mode: 'test', app_id: org.appId, final_verdict: null });
  });
});
