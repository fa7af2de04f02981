import { billingMonth } from '@idv/store';
import { beforeAll, describe, expect, it } from 'vitest';
import { pngBomb } from '../../../../vision/test/support/bombs.ts';
import {
  bearer,
  blurredPhoto,
  createTestOrganisation,
  documentPhoto,
  expectError,
  expectWrongCredentialsRefused,
  HOLDER,
  imageForm,
  matchingSelfie,
  otherPersonSelfie,
  storedImageKeys,
  type TestOrganisation,
  testApp,
  testStore,
  verifyApp,
} from '../../support.ts';

type App = Awaited<ReturnType<typeof verifyApp>>;

async function post(
  app: App,
  key: string,
  parts: Record<string, Uint8Array | string>,
  headers: Record<string, string> = {},
) {
  return app.request('/v1/verify', { method: 'POST', body: imageForm(parts), ...bearer(key, headers) });
}

describe('POST /v1/verify end to end (real models, local stack)', () => {
  let app: App;
  let org: TestOrganisation;
  let passport: Uint8Array;
  let selfie: Uint8Array;

  beforeAll(async () => {
    app = await verifyApp();
    org = await createTestOrganisation();
    passport = await documentPhoto('passport');
    selfie = await matchingSelfie();
  });

  it('verifies a passport with a matching selfie, and the result reads back', async () => {
    const res = await post(app, org.testKey, { front: passport, selfie });
    expect(res.status).toBe(200);
    const v = await res.json();
    expect(v.id).toMatch(/^vrf_[a-z0-9]{6,}$/);
    expect(v).toMatchObject({
      verdict: 'verified',
      status: 'VERIFIED',
      final_verdict: null,
      document_type: 'passport',
      mode: 'test',
    });
    expect(v.score).toBeGreaterThanOrEqual(0.9);
    expect(v.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(v.checks.map((c: { name: string }) => c.name)).toEqual([
      'mrz_checksum',
      'expiry',
      'viz_mrz_consistency',
      'tamper',
      'face_match',
    ]);
    expect(v.fields).toEqual(v.document.fields);
    expect(v.fields).toMatchObject({
      surname: HOLDER.surname,
      date_of_birth: '1987-04-12',
      document_number: HOLDER.number,
    });
    expect(v.document.mrz.valid).toBe(true);
    expect(v.face_match).toMatchObject({ matched: true, faces_in_document: 1, faces_in_selfie: 1 });
    expect(Number.isInteger(v.latency_ms)).toBe(true);
    expect(v.timings.total_ms).toBe(v.latency_ms);

    const read = await app.request(`/v1/verifications/${v.id}`, bearer(org.testKey));
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(v);
    const list = await (await app.request('/v1/verifications?limit=5', bearer(org.testKey))).json();
    expect(list.data.map((x: { id: string }) => x.id)).toContain(v.id);

    // Test mode keeps no image and bills nothing.
    expect(await storedImageKeys(org.orgId)).toEqual([]);
    expect((await testStore().usage.get(org.orgId, billingMonth(new Date()))).live_verifications).toBe(0);
  });

  it('reads the full 17-digit number of a biometric card (front, back, selfie)', async () => {
    const holder = { ...HOLDER, number: '12345678901234567' };
    const res = await post(app, org.testKey, {
      front: await documentPhoto('cni_front', holder),
      back: await documentPhoto('cni_back', holder),
      selfie,
    });
    expect(res.status).toBe(200);
    const v = await res.json();
    expect(v.document_type).toBe('cni');
    expect(v.document.mrz.lines).toHaveLength(3);
    expect(v.fields.document_number).toBe('12345678901234567');
    expect(v.checks.find((c: { name: string }) => c.name === 'mrz_checksum').status).toBe('pass');
  });

  it('analyses concurrent requests independently (models shared by the process)', async () => {
    const other = { ...HOLDER, surname: 'MOUSSA', number: 'NE7654321' };
    const [a, b] = await Promise.all([
      post(app, org.testKey, { front: passport }),
      post(app, org.testKey, { front: await documentPhoto('passport', other) }),
    ]);
    const [va, vb] = [await a.json(), await b.json()];
    expect(va.fields).toMatchObject({ surname: HOLDER.surname, document_number: HOLDER.number });
    expect(vb.fields).toMatchObject({ surname: 'MOUSSA', document_number: 'NE7654321' });
    expect(va.id).not.toBe(vb.id);
  });

  it('rejects an expired document with score 0', async () => {
    const res = await post(app, org.testKey, {
      front: await documentPhoto('passport', { ...HOLDER, expiry: '240101' }),
    });
    const v = await res.json();
    expect(v.verdict).toBe('rejected');
    expect(v.score).toBe(0);
    expect(v.checks.find((c: { name: string }) => c.name === 'expiry').status).toBe('fail');
  });

  it('rejects a mismatched selfie', async () => {
    const v = await (
      await post(app, org.testKey, { front: passport, selfie: await otherPersonSelfie() })
    ).json();
    expect(v.verdict).toBe('rejected');
    expect(v.face_match.matched).toBe(false);
    expect(v.face_match.similarity).toBeLessThan(0.3);
    expect(v.checks.find((c: { name: string }) => c.name === 'face_match').status).toBe('fail');
  });

  it('skips the face match without a selfie (face_match null)', async () => {
    const v = await (await post(app, org.testKey, { front: passport })).json();
    expect(v.face_match).toBeNull();
    const check = v.checks.find((c: { name: string }) => c.name === 'face_match');
    expect(check).toMatchObject({ status: 'skipped', score: null });
  });

  it('refuses a too-blurry photo with 422 unreadable and stores nothing', async () => {
    const other = await createTestOrganisation();
    const res = await post(app, other.liveKey, { front: await blurredPhoto() });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      error: { code: 'unreadable', message: expect.stringContaining('front') },
    });
    expect(await storedImageKeys(other.orgId)).toEqual([]);
    const list = await (await app.request('/v1/verifications', bearer(other.liveKey))).json();
    expect(list.data).toEqual([]);
    expect((await testStore().usage.get(other.orgId, billingMonth(new Date()))).live_verifications).toBe(0);
  });

  it('refuses bad uploads with the right envelope', async () => {
    const cases: [Record<string, Uint8Array | string>, number, string][] = [
      [{}, 400, 'invalid_request'],
      [{ back: passport }, 400, 'invalid_request'],
      [{ front: new TextEncoder().encode('%PDF-1.7 not an image') }, 400, 'invalid_image'],
      [{ front: passport, extra: passport }, 400, 'invalid_request'],
      [{ front: 'text, not a file' }, 400, 'invalid_request'],
      [{ front: new Uint8Array(12 * 1024 * 1024 + 1).fill(0xff) }, 413, 'image_too_large'],
    ];
    for (const [parts, status, code] of cases) {
      const res = await post(app, org.testKey, parts);
      expect(res.status, code).toBe(status);
      expect((await res.json()).error.code).toBe(code);
    }
    const truncated = await app.request('/v1/verify', {
      method: 'POST',
      body: '--x\r\nContent-Disposition: form-data; name="front"; filename="a.jpg"\r\n\r\n\xff\xd8\xff',
      ...bearer(org.testKey, { 'content-type': 'multipart/form-data; boundary=x' }),
    });
    expect(truncated.status).toBe(400);
    expect((await truncated.json()).error.code).toBe('invalid_request');
  });

  it('replays an idempotent request, refuses a reused key, and never makes two verifications', async () => {
    const live = await createTestOrganisation();
    const headers = { 'idempotency-key': 'order-42' };
    const first = await post(app, live.liveKey, { front: passport }, headers);
    expect(first.status).toBe(200);
    const v = await first.json();
    const again = await post(app, live.liveKey, { front: passport }, headers);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await again.json()).id).toBe(v.id);
    const reused = await post(app, live.liveKey, { front: passport, selfie }, headers);
    expect(reused.status).toBe(422);
    expect((await reused.json()).error.code).toBe('idempotency_key_reused');
    // Billed once.
    expect((await testStore().usage.get(live.orgId, billingMonth(new Date()))).live_verifications).toBe(1);

    const concurrent = await Promise.all([
      post(app, live.liveKey, { front: passport }, { 'idempotency-key': 'order-43' }),
      post(app, live.liveKey, { front: passport }, { 'idempotency-key': 'order-43' }),
    ]);
    const statuses = concurrent.map((r) => r.status).sort();
    expect([
      [200, 409],
      [200, 200],
    ]).toContainEqual(statuses);
    const ids = new Set(
      (await Promise.all(concurrent.map((r) => r.json()))).map((b) => b.id).filter(Boolean),
    );
    expect(ids.size).toBe(1);
    const list = await (await app.request('/v1/verifications', bearer(live.liveKey))).json();
    expect(list.data).toHaveLength(2);
  });

  it('refuses a malformed Idempotency-Key', async () => {
    const res = await post(app, org.testKey, { front: passport }, { 'idempotency-key': 'has space' });
    expect(await expectError(res, 400, 'invalid_request')).toContain('Idempotency-Key');
  });

  it('keeps test and live apart: a test verification is not listed with the live key', async () => {
    const v = await (await post(app, org.testKey, { front: passport })).json();
    expect(v.mode).toBe('test');
    expect((await app.request(`/v1/verifications/${v.id}`, bearer(org.liveKey))).status).toBe(404);
  });
});

describe('POST /v1/verify refusals before any analysis', () => {
  const form = async () => imageForm({ front: await documentPhoto('passport') });

  it('answers 402 account_suspended to a suspended organisation, whose reads still work', async () => {
    const org = await createTestOrganisation();
    await testStore().organisations.update(org.orgId, { suspended: true });
    const app = testApp();
    const res = await app.request('/v1/verify', {
      method: 'POST',
      body: await form(),
      ...bearer(org.liveKey),
    });
    await expectError(res, 402, 'account_suspended');
    expect((await app.request('/v1/verifications', bearer(org.liveKey))).status).toBe(200);
  });

  it('refuses every wrong credential with 401 unauthorized', async () => {
    const app = testApp();
    await expectWrongCredentialsRefused(async (headers) =>
      app.request('/v1/verify', { method: 'POST', body: await form(), headers }),
    );
  });

  // Pixel bombs: the header states more than the 50 Mpx budget. The app has no analyzer and the
  // key is live (live images are kept): a 400 with an empty bucket means refused at upload.
  const postLive = (org: TestOrganisation, parts: Record<string, Uint8Array>) =>
    testApp().request('/v1/verify', { method: 'POST', body: imageForm(parts), ...bearer(org.liveKey) });

  it('refuses a pixel bomb, a 16 000 × 16 000 PNG (31 KB, 768 MB decoded), with 400 invalid_image', async () => {
    const org = await createTestOrganisation();
    const before = process.memoryUsage().rss;
    const res = await postLive(org, { front: pngBomb(16_000, 16_000) });
    expect(await expectError(res, 400, 'invalid_image')).toBe(
      'front: the image is 16000 × 16000 pixels (256.0 megapixels); the limit is 50 megapixels',
    );
    expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
    expect(await storedImageKeys(org.orgId)).toEqual([]);
  });

  it('refuses a bomb in any part, beside a good document, and three at once', async () => {
    const org = await createTestOrganisation();
    const passport = await documentPhoto('passport');
    const strip = await postLive(org, { front: passport, selfie: pngBomb(120_000, 500) });
    expect(await expectError(strip, 400, 'invalid_image')).toMatch(/^selfie: .*60\.0 megapixels/);
    const bomb = pngBomb(16_000, 16_000);
    await expectError(await postLive(org, { front: bomb, back: bomb, selfie: bomb }), 400, 'invalid_image');
    expect(await storedImageKeys(org.orgId)).toEqual([]);
  });
});
