import { AWS_GATEWAY_LIMITS } from '@idv/api';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestOrganisation,
  documentPhoto,
  expectError,
  heavyJpeg,
  imageForm,
  stagedUploadKeys,
  testStore,
  uploadImages,
} from '../../support.ts';
import {
  analyzerApp,
  expectWrongClientTokensRefused,
  openSession,
  sessionFixture,
} from './session-support.ts';

/**
 * POST /v1/sessions/{id}/uploads and a session's verify naming its uploads: the browser's path
 * for photos of any size, behind the simulated API gateway.
 */
const askBody = (kind = 'front', size = 1000) =>
  JSON.stringify({ images: [{ kind, content_type: 'image/jpeg', size }] });

function ask(
  app: { request: (p: string, i: RequestInit) => Response | Promise<Response> },
  id: string,
  token: string,
  body = askBody(),
) {
  return app.request(`/v1/sessions/${id}/uploads`, {
    method: 'POST',
    body,
    ...bearer(token, { 'content-type': 'application/json' }),
  });
}

describe('POST /v1/sessions/{id}/uploads (createSessionUploads)', { timeout: 300_000 }, () => {
  let passport: Uint8Array;
  beforeAll(async () => {
    passport = await documentPhoto('passport');
  });

  it('a 12 MB photo goes through the upload path and completes the session; the multipart way is refused', async () => {
    const app = await analyzerApp({ gateway: AWS_GATEWAY_LIMITS, analysisTimeoutMs: 240_000 });
    const org = await createTestOrganisation();
    const session = await openSession(app, org.testKey, { document_type: 'passport' });
    const heavy = heavyJpeg(passport, 12 * 1024 * 1024 - 70_000);

    const multipart = await app.request(`/v1/sessions/${session.id}/verify`, {
      method: 'POST',
      body: imageForm({ front: heavy }),
      ...bearer(session.client_token),
    });
    const message = await expectError(multipart, 413, 'image_too_large');
    expect(message).toContain(`POST /v1/sessions/${session.id}/uploads`);

    const ids = await uploadImages(
      app,
      session.client_token,
      { front: heavy },
      `/v1/sessions/${session.id}/uploads`,
    );
    const res = await app.request(`/v1/sessions/${session.id}/verify`, {
      method: 'POST',
      body: JSON.stringify(ids),
      ...bearer(session.client_token, { 'content-type': 'application/json' }),
    });
    expect(res.status).toBe(201);
    const verification = await res.json();
    expect(verification.document_type).toBe('passport');
    const read = await (await app.request(`/v1/sessions/${session.id}`, bearer(org.testKey))).json();
    expect(read).toMatchObject({ status: 'completed', verification_id: verification.id });
    expect(await stagedUploadKeys(org.orgId)).toEqual([]);

    // The session is spent: no more targets.
    await expectError(await ask(app, session.id, session.client_token), 409, 'session_completed');
  });

  it('uploads belong to their session: a secret key or another session cannot use them', async () => {
    const { org, app, session } = await sessionFixture();
    const other = await openSession(app, org.testKey);
    const ids = await uploadImages(
      app,
      session.client_token,
      { front: passport },
      `/v1/sessions/${session.id}/uploads`,
    );
    const viaOther = await app.request(`/v1/sessions/${other.id}/verify`, {
      method: 'POST',
      body: JSON.stringify(ids),
      ...bearer(other.client_token, { 'content-type': 'application/json' }),
    });
    await expectError(viaOther, 400, 'invalid_request');
    const record = await testStore().uploadRecords.get(ids.front);
    expect(record).toMatchObject({ session_id: session.id, upload_state: 'open' });
    // The key's own uploads are not the session's either.
    const keyUploads = await uploadImages(app, org.testKey, { front: passport });
    const viaSession = await app.request(`/v1/sessions/${session.id}/verify`, {
      method: 'POST',
      body: JSON.stringify(keyUploads),
      ...bearer(session.client_token, { 'content-type': 'application/json' }),
    });
    await expectError(viaSession, 400, 'invalid_request');
  });

  it('refuses a back for a passport session, an expired session, oversize and malformed requests', async () => {
    const { app, session } = await sessionFixture({}, { document_type: 'passport' });
    await expectError(
      await ask(app, session.id, session.client_token, askBody('back')),
      400,
      'invalid_request',
    );
    await expectError(
      await ask(app, session.id, session.client_token, askBody('front', 12 * 1024 * 1024 + 1)),
      413,
      'image_too_large',
    );
    await expectError(
      await ask(app, session.id, session.client_token, '{"images":[]}'),
      400,
      'invalid_request',
    );

    const late = await sessionFixture({}, { ttl_seconds: 60 });
    const later = {
      ...late,
      app: (await import('../../support.ts')).testApp({ now: () => new Date(Date.now() + 120_000) }),
    };
    await expectError(
      await ask(later.app, late.session.id, late.session.client_token),
      410,
      'session_expired',
    );
  });

  it('refuses wrong client tokens with 401, and answers the browser’s preflight', async () => {
    const { app, session } = await sessionFixture();
    await expectWrongClientTokensRefused(app, (headers) =>
      app.request(`/v1/sessions/${session.id}/uploads`, {
        method: 'POST',
        body: askBody(),
        headers: { ...headers, 'content-type': 'application/json' },
      }),
    );
    const preflight = await app.request(`/v1/sessions/${session.id}/uploads`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
  });
});
