import { createIdvClient, type VerificationCompletedEvent, verifyWebhookSignature } from '@idv/client';
import { afterAll, describe, expect, it } from 'vitest';
import { documentPhoto } from '../support/documents.ts';
import { createTestOrganisation } from '../support/stack.ts';
import { verifyApp } from '../support/verify-app.ts';
import { startDeliveryPath, waitFor } from '../webhooks/support.ts';

describe('a verification reaches the customer by webhook', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('POST /v1/verify → event queued → worker → signed delivery with the same Verification', async () => {
    const { store, receiver, events, close } = await startDeliveryPath();
    cleanups.push(close);
    const app = await verifyApp({ store, events, webhooks: { allowLocalhost: true } });
    const org = await createTestOrganisation();

    // The published client, on the app in process.
    const client = (secretKey: string) =>
      createIdvClient({ baseUrl: 'http://localhost:8787', secretKey, fetch: async (req) => app.fetch(req) });

    const endpoint = await client(org.liveKey).POST('/v1/webhooks', {
      body: { url: receiver.url, description: 'e2e' },
    });
    expect(endpoint.response.status).toBe(201);
    const secret = endpoint.data?.secret ?? '';

    const front = new Blob([new Uint8Array(await documentPhoto('passport'))], { type: 'image/jpeg' });
    const res = await client(org.testKey).POST('/v1/verify', { body: { front } });
    expect(res.response.status).toBe(200);
    const verification = res.data;

    const request = await waitFor('the webhook delivery', () => receiver.requests[0]);
    expect(request.headers['service-event']).toBe('verification.completed');
    const event = verifyWebhookSignature<VerificationCompletedEvent>(
      request.body,
      String(request.headers['service-signature']),
      secret,
    );
    expect(event.id).toMatch(/^evt_/);
    expect(event.data).toEqual({ ...verification, mode: 'test', app_id: org.appId, final_verdict: null });
  });
});
