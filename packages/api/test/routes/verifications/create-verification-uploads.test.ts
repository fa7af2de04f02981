import { AWS_GATEWAY_LIMITS } from '@idv/api';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestOrganisation,
  documentPhoto,
  expectError,
  heavyJpeg,
  imageForm,
  matchingSelfie,
  stagedUploadKeys,
  storedImageKeys,
  type TestOrganisation,
  testStore,
  uploadImages,
  verifyApp,
} from '../../support.ts';

/**
 * POST /v1/verify naming direct uploads, with API Gateway's limit simulated (the body counted
 * base64-encoded against the 6 MB event): the real models and the real local stack.
 */
type App = Awaited<ReturnType<typeof verifyApp>>;

const TWELVE_MB_CLASS = 12 * 1024 * 1024 - 64 * 1024;

function verifyJson(app: App, key: string, body: unknown, headers: Record<string, string> = {}) {
  return app.request('/v1/verify', {
    method: 'POST',
    ...bearer(key, { 'content-type': 'application/json', ...headers }),
    body: JSON.stringify(body),
  });
}

// Analyses share the machine with other work: generous limits, never a measure of speed.
describe('POST /v1/verify with direct uploads, behind the simulated API gateway', {
  timeout: 300_000,
}, () => {
  let app: App;
  let org: TestOrganisation;
  let front: Uint8Array;
  let back: Uint8Array;
  let selfie: Uint8Array;

  beforeAll(async () => {
    app = await verifyApp({ gateway: AWS_GATEWAY_LIMITS, analysisTimeoutMs: 240_000 });
    org = await createTestOrganisation();
    front = heavyJpeg(await documentPhoto('cni_front'), TWELVE_MB_CLASS);
    back = heavyJpeg(await documentPhoto('cni_back'), TWELVE_MB_CLASS);
    selfie = heavyJpeg(await matchingSelfie(), TWELVE_MB_CLASS);
  });

  it('three 12 MB images go through the upload path to a verdict; nothing is kept in test mode', async () => {
    for (const image of [front, back, selfie]) expect(image.byteLength).toBeGreaterThan(11.8 * 1024 * 1024);
    const ids = await uploadImages(app, org.testKey, { front, back, selfie });
    const res = await verifyJson(app, org.testKey, ids);
    expect(res.status).toBe(200);
    const v = await res.json();
    expect(v.id).toMatch(/^vrf_/);
    expect(v.document_type).toBe('cni');
    expect(['verified', 'review', 'rejected']).toContain(v.verdict);
    expect(v.face_match).toMatchObject({ faces_in_selfie: 1 });
    expect(v.mode).toBe('test');

    // Spent: the staging objects are deleted, the test images were never kept, the records say used.
    expect(await stagedUploadKeys(org.orgId)).toEqual([]);
    expect(await storedImageKeys(org.orgId)).toEqual([]);
    const record = await testStore().uploadRecords.get(ids.front);
    expect(record).toMatchObject({ upload_state: 'used', verification_id: v.id });

    // Replay without a key: single use.
    const again = await verifyJson(app, org.testKey, ids);
    const message = await expectError(again, 409, 'conflict');
    expect(message).toContain('already used');
  });

  it('the same three images as multipart are refused with 413 naming the upload path', async () => {
    const res = await app.request('/v1/verify', {
      method: 'POST',
      body: imageForm({ front, back, selfie }),
      ...bearer(org.testKey),
    });
    const message = await expectError(res, 413, 'image_too_large');
    expect(message).toContain('POST /v1/uploads');
    // Also a single image that fits S3 but not the gateway once base64-encoded.
    const one = await app.request('/v1/verify', {
      method: 'POST',
      body: imageForm({ front: heavyJpeg(await documentPhoto('passport'), 4_800_000) }),
      ...bearer(org.testKey),
    });
    await expectError(one, 413, 'image_too_large');
  });

  it('multipart below the gateway cap still verifies', async () => {
    const res = await app.request('/v1/verify', {
      method: 'POST',
      body: imageForm({ front: await documentPhoto('passport'), selfie: await matchingSelfie() }),
      ...bearer(org.testKey),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).document_type).toBe('passport');
  });

  it('live uploads are kept encrypted under retention, and the staging objects are deleted', async () => {
    const passport = await documentPhoto('passport');
    const ids = await uploadImages(app, org.liveKey, { front: passport });
    const res = await verifyJson(app, org.liveKey, ids);
    expect(res.status).toBe(200);
    const v = await res.json();
    expect(await stagedUploadKeys(org.orgId)).toEqual([]);
    const stored = await storedImageKeys(org.orgId);
    expect(stored).toEqual([`images/${org.orgId}/live/${v.id}/front`]);
    const raw = await testStore().images.getRaw(stored[0] ?? '');
    expect(Buffer.from(raw ?? []).includes(Buffer.from(passport.subarray(0, 64)))).toBe(false);
    const record = await testStore().verifications.getById(v.id);
    expect(record?.images_purge_after).not.toBeNull();
  });

  it('an Idempotency-Key replays the result of named uploads without reading them again', async () => {
    const ids = await uploadImages(app, org.testKey, { front: await documentPhoto('passport') });
    const first = await verifyJson(app, org.testKey, ids, { 'idempotency-key': 'uploads-replay-1' });
    expect(first.status).toBe(200);
    const body = await first.json();
    const replay = await verifyJson(app, org.testKey, ids, { 'idempotency-key': 'uploads-replay-1' });
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual(body);
    // The same key with other uploads is another request.
    const other = await uploadImages(app, org.testKey, { front: await documentPhoto('passport') });
    const reused = await verifyJson(app, org.testKey, other, { 'idempotency-key': 'uploads-replay-1' });
    await expectError(reused, 422, 'idempotency_key_reused');
  });

  it('refuses uploads of another organisation, another mode, another kind, or of a session', async () => {
    const passport = await documentPhoto('passport');
    const stranger = await createTestOrganisation();
    const theirs = await uploadImages(app, stranger.testKey, { front: passport });
    await expectError(await verifyJson(app, org.testKey, theirs), 400, 'invalid_request');
    expect(await stagedUploadKeys(stranger.orgId)).toHaveLength(1); // untouched

    const live = await uploadImages(app, org.liveKey, { front: passport });
    await expectError(await verifyJson(app, org.testKey, live), 400, 'invalid_request');

    const selfieUpload = await uploadImages(app, org.testKey, { selfie: passport });
    const wrongKind = await verifyJson(app, org.testKey, { front: selfieUpload.selfie });
    expect(await expectError(wrongKind, 400, 'invalid_request')).toContain('selfie');

    const created = await app.request('/v1/sessions', {
      method: 'POST',
      ...bearer(org.testKey, { 'content-type': 'application/json' }),
      body: '{}',
    });
    const session = await created.json();
    const sessionUploads = await uploadImages(
      app,
      session.client_token,
      { front: passport },
      `/v1/sessions/${session.id}/uploads`,
    );
    await expectError(await verifyJson(app, org.testKey, sessionUploads), 400, 'invalid_request');
  });

  it('refuses an upload never sent, a file that is not an image, and malformed bodies', async () => {
    const res = await app.request('/v1/uploads', {
      method: 'POST',
      ...bearer(org.testKey, { 'content-type': 'application/json' }),
      body: JSON.stringify({ images: [{ kind: 'front', content_type: 'image/jpeg', size: 5 }] }),
    });
    const [target] = (await res.json()).uploads;
    const missing = await verifyJson(app, org.testKey, { front: target.id });
    expect(await expectError(missing, 400, 'invalid_request')).toContain('PUT the file');

    // Still usable once the file arrives; this one is not an image, so it is refused and spent.
    await fetch(target.url, {
      method: 'PUT',
      headers: target.headers,
      body: new TextEncoder().encode('hello'),
    });
    await expectError(await verifyJson(app, org.testKey, { front: target.id }), 400, 'invalid_image');
    expect((await stagedUploadKeys(org.orgId)).filter((k) => k.includes(target.id))).toEqual([]);
    await expectError(await verifyJson(app, org.testKey, { front: target.id }), 409, 'conflict');

    for (const body of [{}, { front: 'vrf_abc' }, { front: target.id, passport: target.id }]) {
      await expectError(await verifyJson(app, org.testKey, body), 400, 'invalid_request');
    }
    const notJson = await app.request('/v1/verify', {
      method: 'POST',
      ...bearer(org.testKey, { 'content-type': 'application/json' }),
      body: '{',
    });
    await expectError(notJson, 400, 'invalid_request');
  });
});
