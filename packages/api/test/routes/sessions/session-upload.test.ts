import { randomBytes } from 'node:crypto';
import { inProcessAnalyzer, warmUpAnalyzer } from '@idv/vision';
import { startWebhookWorker, webhookEventPublisher } from '@idv/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blurredPhoto, documentPhoto, matchingSelfie } from '../../../../../test/support/documents.ts';
import { bearer, createTestOrganisation, testApp, testStore } from '../../../../../test/support/stack.ts';
import { imageForm } from '../../../../../test/support/verify-app.ts';
import { isolatedStore, startReceiver, waitFor } from '../../../../../test/webhooks/support.ts';
import { onePart, openSession } from './session-support.ts';

/** The app with the real in-process analyzer (ONNX models), as `npm start` runs it. */
function sessionApp(overrides: Parameters<typeof testApp>[0] = {}) {
  return testApp({ analyzer: inProcessAnalyzer(), urlSigningKey: randomBytes(32), ...overrides });
}

function upload(
  app: ReturnType<typeof testApp>,
  session: { id: string; client_token: string },
  form: FormData,
) {
  return app.request(`/v1/sessions/${session.id}/verify`, {
    method: 'POST',
    body: form,
    ...bearer(session.client_token),
  });
}

let passport: Uint8Array;
let selfie: Uint8Array;
beforeAll(async () => {
  await warmUpAnalyzer();
  passport = await documentPhoto('passport');
  selfie = await matchingSelfie();
});

describe('POST /v1/sessions/{id}/verify', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('completes the session with 201, shows the outcome on GET, and sends the webhook', async () => {
    const store = await isolatedStore();
    const receiver = await startReceiver();
    const worker = startWebhookWorker(store, { allowLocalhost: true });
    cleanups.push(
      () => receiver.close(),
      () => worker.stop(),
    );
    const app = sessionApp({
      store,
      events: webhookEventPublisher(store),
      webhooks: { allowLocalhost: true },
    });
    const org = await createTestOrganisation();
    const hook = await app.request('/v1/webhooks', {
      method: 'POST',
      body: JSON.stringify({ url: receiver.url, description: 'sessions' }),
      ...bearer(org.testKey, { 'content-type': 'application/json' }),
    });
    expect(hook.status).toBe(201);
    const session = await openSession(app, org.testKey, { reference: 'file-9', document_type: 'passport' });

    const res = await upload(app, session, imageForm({ front: passport, selfie }));
    expect(res.status).toBe(201);
    const verification = await res.json();
    expect(verification).toMatchObject({
      id: expect.stringMatching(/^vrf_/),
      document_type: 'passport',
      mode: 'test',
    });

    const read = await (await app.request(`/v1/sessions/${session.id}`, bearer(org.testKey))).json();
    expect(read).toMatchObject({
      status: 'completed',
      reference: 'file-9',
      verification_id: verification.id,
    });
    expect(read.verification).toEqual(verification);

    const delivery = await waitFor('the webhook of the session', () => receiver.requests[0]);
    expect(JSON.parse(delivery.body).data.id).toBe(verification.id);

    // The token is spent: a second upload is refused.
    const again = await upload(app, session, imageForm({ front: passport }));
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe('session_completed');
  });

  it('of ten concurrent uploads with one token, makes exactly one verification', async () => {
    const org = await createTestOrganisation();
    const app = sessionApp();
    const session = await openSession(app, org.testKey);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => upload(app, session, imageForm({ front: passport }))),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    for (const refused of results.filter((r) => r.status === 409)) {
      expect(['conflict', 'session_completed']).toContain((await refused.json()).error.code);
    }
    const list = await (await app.request('/v1/verifications', bearer(org.testKey))).json();
    expect(list.data).toHaveLength(1);
  });

  it('leaves the session usable after a 422 (too blurry) and after a 402 (suspended)', async () => {
    const org = await createTestOrganisation();
    const app = sessionApp();
    const session = await openSession(app, org.testKey);
    const blurry = await upload(app, session, imageForm({ front: await blurredPhoto() }));
    expect(blurry.status).toBe(422);
    expect((await blurry.json()).error.code).toBe('unreadable');

    await testStore().organisations.update(org.orgId, { suspended: true });
    const suspended = await upload(app, session, imageForm({ front: passport }));
    expect(suspended.status).toBe(402);
    await testStore().organisations.update(org.orgId, { suspended: false });

    expect((await (await app.request(`/v1/sessions/${session.id}`, bearer(org.testKey))).json()).status).toBe(
      'open',
    );
    expect((await upload(app, session, imageForm({ front: passport }))).status).toBe(201);
  });

  it('enforces the document the session imposes, and stays usable', async () => {
    const org = await createTestOrganisation();
    const app = sessionApp();
    const forPassport = await openSession(app, org.testKey, { document_type: 'passport' });
    const withBack = await upload(
      app,
      forPassport,
      imageForm({ front: passport, back: await documentPhoto('cni_back') }),
    );
    expect(withBack.status).toBe(400);

    const forCard = await openSession(app, org.testKey, { document_type: 'cni' });
    const wrong = await upload(app, forCard, imageForm({ front: passport }));
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error.message).toContain('identity card');
    expect((await (await app.request('/v1/verifications', bearer(org.testKey))).json()).data).toHaveLength(0);
    const card = await upload(
      app,
      forCard,
      imageForm({ front: await documentPhoto('cni_front'), back: await documentPhoto('cni_back') }),
    );
    expect(card.status).toBe(201);
    expect((await card.json()).document_type).toBe('cni');
  });
});

describe('session helpers with the real analyzer', () => {
  it('pre-checks a photo and reads the chip key only from a valid MRZ', async () => {
    const org = await createTestOrganisation();
    const app = sessionApp();
    const session = await openSession(app, org.testKey);
    const good = await app.request(`/v1/sessions/${session.id}/precheck?document_type=passport&side=front`, {
      method: 'POST',
      body: onePart(passport),
      ...bearer(session.client_token),
    });
    expect(good.status).toBe(200);
    expect(await good.json()).toEqual({ issue: null, checked: true, latency_ms: expect.any(Number) });
    // The card's front has no MRZ: asked for its back, the pre-check says so.
    const side = await app.request(`/v1/sessions/${session.id}/precheck?document_type=cni&side=back`, {
      method: 'POST',
      body: onePart(await documentPhoto('cni_front')),
      ...bearer(session.client_token),
    });
    expect((await side.json()).issue).toBe('wrong_side');

    const key = await app.request(`/v1/sessions/${session.id}/mrz`, {
      method: 'POST',
      body: onePart(passport),
      ...bearer(session.client_token),
    });
    expect(await key.json()).toEqual({
      key: { document_number: 'NE1234567', date_of_birth: '870412', date_of_expiry: '310925' },
    });
    const noMrz = await app.request(`/v1/sessions/${session.id}/mrz`, {
      method: 'POST',
      body: onePart(await documentPhoto('cni_front')),
      ...bearer(session.client_token),
    });
    expect(await noMrz.json()).toEqual({ key: null });
  });

  it('answers checked:false when the pre-check times out', async () => {
    const org = await createTestOrganisation();
    const app = sessionApp({ precheckTimeoutMs: 1 });
    const session = await openSession(app, org.testKey);
    const res = await app.request(`/v1/sessions/${session.id}/precheck`, {
      method: 'POST',
      body: onePart(passport),
      ...bearer(session.client_token),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ issue: null, checked: false });
  });
});
