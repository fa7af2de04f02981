import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeliveryPath, waitFor } from '../../../../../test/webhooks/support.ts';
import {
  bearer,
  blurredPhoto,
  createTestOrganisation,
  documentPhoto,
  expectError,
  imageForm,
  matchingSelfie,
  testStore,
} from '../../support.ts';
import {
  analyzerApp,
  clientCall,
  expectWrongClientTokensRefused,
  openSession,
  postJson,
  sessionFixture,
  type TestApp,
} from './session-support.ts';

const upload = (app: TestApp, session: { id: string; client_token: string }, form: FormData) =>
  clientCall(app, session, 'verify', form);

let passport: Uint8Array;
let selfie: Uint8Array;
beforeAll(async () => {
  passport = await documentPhoto('passport');
  selfie = await matchingSelfie();
});

describe('POST /v1/sessions/{id}/verify (uploadSession)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups) await cleanup();
  });

  it('completes the session with 201, shows the outcome on GET, and sends the webhook', async () => {
    const { store, receiver, events, close } = await startDeliveryPath();
    cleanups.push(close);
    const app = await analyzerApp({ store, events, webhooks: { allowLocalhost: true } });
    const org = await createTestOrganisation();
    const hook = await app.request(
      '/v1/webhooks',
      postJson(org.testKey, { url: receiver.url, description: 'sessions' }),
    );
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
    await expectError(await upload(app, session, imageForm({ front: passport })), 409, 'session_completed');
  });

  it('of ten concurrent uploads with one token, makes exactly one verification', async () => {
    const org = await createTestOrganisation();
    const app = await analyzerApp();
    const session = await openSession(app, org.testKey);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => upload(app, session, imageForm({ front: passport }))),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    for (const refused of results.filter((r) => r.status === 409)) {
      expect(['conflict', 'session_completed']).toContain((await refused.json()).error.code);
    }
    const list = await (await app.request('/v1/verifications', bearer(org.testKey))).json();
    expect(list.data).toHaveLength(1);
  });

  it('leaves the session usable after a 422 (too blurry) and after a 402 (suspended)', async () => {
    const org = await createTestOrganisation();
    const app = await analyzerApp();
    const session = await openSession(app, org.testKey);
    await expectError(
      await upload(app, session, imageForm({ front: await blurredPhoto() })),
      422,
      'unreadable',
    );

    await testStore().organisations.update(org.orgId, { suspended: true });
    await expectError(await upload(app, session, imageForm({ front: passport })), 402, 'account_suspended');
    await testStore().organisations.update(org.orgId, { suspended: false });

    expect((await (await app.request(`/v1/sessions/${session.id}`, bearer(org.testKey))).json()).status).toBe(
      'open',
    );
    expect((await upload(app, session, imageForm({ front: passport }))).status).toBe(201);
  });

  it('enforces the document the session imposes, and stays usable', async () => {
    const org = await createTestOrganisation();
    const app = await analyzerApp();
    const forPassport = await openSession(app, org.testKey, { document_type: 'passport' });
    await expectError(
      await upload(app, forPassport, imageForm({ front: passport, back: await documentPhoto('cni_back') })),
      400,
      'invalid_request',
    );

    const forCard = await openSession(app, org.testKey, { document_type: 'cni' });
    const message = await expectError(
      await upload(app, forCard, imageForm({ front: passport })),
      400,
      'invalid_request',
    );
    expect(message).toContain('identity card');
    expect((await (await app.request('/v1/verifications', bearer(org.testKey))).json()).data).toHaveLength(0);
    const card = await upload(
      app,
      forCard,
      imageForm({ front: await documentPhoto('cni_front'), back: await documentPhoto('cni_back') }),
    );
    expect(card.status).toBe(201);
    expect((await card.json()).document_type).toBe('cni');
  });

  it('refuses wrong tokens, and limits uploads per session', async () => {
    const { app, session } = await sessionFixture({
      now: () => new Date('2030-03-01T12:00:00Z'),
      limits: { sessionUploadsPerMinute: 1 },
    });
    await expectWrongClientTokensRefused(app, (headers) =>
      app.request(`/v1/sessions/${session.id}/verify`, {
        method: 'POST',
        body: imageForm({ front: passport }),
        headers,
      }),
    );
    await expectError(await upload(app, session, new FormData()), 400, 'invalid_request');
    const limited = await upload(app, session, imageForm({ front: passport }));
    await expectError(limited, 429, 'rate_limited');
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(limited.headers.get('x-ratelimit-limit')).toBe('1');
  });

  it('answers the CORS preflight for any origin, and errors carry the CORS header', async () => {
    const { app, session } = await sessionFixture();
    for (const route of ['verify', 'precheck', 'mrz']) {
      const res = await app.request(`/v1/sessions/${session.id}/${route}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://shop.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toContain('POST');
      expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    }
    const refused = await app.request(`/v1/sessions/${session.id}/verify`, {
      method: 'POST',
      headers: { origin: 'https://shop.example' },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    // The secret-key routes stay closed to browsers.
    const closed = await app.request('/v1/sessions', {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
    });
    expect(closed.headers.get('access-control-allow-origin')).toBeNull();
  });
});
