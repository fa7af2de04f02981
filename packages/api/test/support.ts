import type { Verification } from '@idv/core';
import type { Mode, VerificationRecord } from '@idv/store';
import { expect } from 'vitest';
import {
  bearer,
  createTestOrganisation,
  type TestOrganisation,
  testStore,
} from '../../../test/support/stack.ts';
import { sampleVerification } from '../../../test/webhooks/support.ts';

/**
 * Support of the API's route and middleware tests. The local stack (DynamoDB Local, fauxqs,
 * started by test/global-setup.ts) and the synthetic documents stay in the root test/support;
 * they are re-exported here so that these tests import from one place.
 */
export * from '../../../test/support/documents.ts';
export * from '../../../test/support/stack.ts';
export * from '../../../test/support/verify-app.ts';
export { sampleVerification };

/** Asserts the spec's error envelope, exactly `{"error":{"code","message"}}`, and returns the message. */
export async function expectError(res: Response, status: number, code: string): Promise<string> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/json');
  const body = await res.json();
  expect(body).toEqual({ error: { code, message: expect.any(String) } });
  expect(body.error.message.length).toBeGreaterThan(0);
  return body.error.message as string;
}

/**
 * Sends the call with each credential an operation behind a secret key must refuse — none, a
 * malformed header, a key of the right shape that does not exist, a revoked key — and expects
 * 401 `unauthorized` every time.
 */
export async function expectWrongCredentialsRefused(
  call: (headers: Record<string, string>) => Response | Promise<Response>,
): Promise<void> {
  const org = await createTestOrganisation();
  await testStore().apiKeys.revoke(org.orgId, org.testKeyId);
  const wrong: [string, Record<string, string>][] = [
    ['no credential', {}],
    ['a malformed header', { authorization: 'Token abc' }],
    ['an unknown key', { authorization: `Bearer vn_test_${'a'.repeat(40)}` }],
    ['a revoked key', bearer(org.testKey).headers],
  ];
  for (const [name, headers] of wrong) {
    const res = await call(headers);
    expect(res.status, name).toBe(401);
    await expectError(res, 401, 'unauthorized');
  }
}

/**
 * A verification saved straight into the store (no analysis), for the read operations. In
 * live mode, `images` are stored (encrypted) and recorded with it, as POST /v1/verify does;
 * `purged` marks them deleted after retention, as the purge job does.
 */
export async function seedVerification(
  org: TestOrganisation,
  mode: Mode,
  images: Partial<Record<'front' | 'back' | 'selfie', Uint8Array>> = {},
  options: { purged?: boolean } = {},
): Promise<Verification> {
  const store = testStore();
  const verification = sampleVerification({ mode, created_at: new Date().toISOString() });
  const stored: VerificationRecord['images'] = {};
  for (const [kind, bytes] of Object.entries(images)) {
    const key = `images/${org.orgId}/${mode}/${verification.id}/${kind}`;
    await store.images.put(key, bytes, 'image/jpeg');
    stored[kind as 'front'] = { key, content_type: 'image/jpeg', bytes: bytes.byteLength };
  }
  await store.transact([
    store.verifications.putItem({
      verification,
      org_id: org.orgId,
      app_id: org.appId,
      mode,
      images: stored,
      images_purge_after: null,
      images_purged_at: options.purged ? new Date().toISOString() : null,
      cost: { analyzer_ms: 0, compute_usd: 0, storage_usd: 0, total_usd: 0 },
      session_id: null,
      billing_month: null,
    }),
  ]);
  return verification;
}

/** The organisation's audit journal (first page), newest first. */
export async function auditEntries(orgId: string) {
  const result = await testStore().audit.list(orgId, 10);
  if (!result.ok) throw new Error('the audit list refused its first page');
  return result.page.data;
}

/**
 * A JPEG grown to about `total` bytes with APP15 segments after its start marker: the pixels
 * (and so the analysis) stay those of `jpeg`, the file is as heavy as a 12 MB phone photo.
 */
export function heavyJpeg(jpeg: Uint8Array, total: number): Uint8Array<ArrayBuffer> {
  const segment = 65_533; // the most one segment holds (its length field counts itself)
  const count = Math.max(0, Math.floor((total - jpeg.byteLength) / (segment + 2)));
  const out = new Uint8Array(jpeg.byteLength + count * (segment + 2));
  out.set(jpeg.subarray(0, 2), 0);
  let at = 2;
  for (let i = 0; i < count; i++) {
    out[at] = 0xff;
    out[at + 1] = 0xef;
    out[at + 2] = (segment >> 8) & 0xff;
    out[at + 3] = segment & 0xff;
    out.fill(0x20, at + 4, at + 2 + segment);
    at += segment + 2;
  }
  out.set(jpeg.subarray(2), at);
  return out;
}

type Kind = 'front' | 'back' | 'selfie';

/** Asks for upload targets with `key` (or a session's client token) and PUTs each image to its URL. */
export async function uploadImages(
  app: { request(path: string, init?: RequestInit): Response | Promise<Response> },
  credential: string,
  images: Partial<Record<Kind, Uint8Array>>,
  path = '/v1/uploads',
): Promise<Record<Kind, string>> {
  const entries = Object.entries(images) as [Kind, Uint8Array][];
  const res = await app.request(path, {
    method: 'POST',
    ...bearer(credential, { 'content-type': 'application/json' }),
    body: JSON.stringify({
      images: entries.map(([kind, bytes]) => ({ kind, content_type: 'image/jpeg', size: bytes.byteLength })),
    }),
  });
  expect(res.status).toBe(201);
  const { uploads } = (await res.json()) as {
    uploads: { id: string; kind: Kind; url: string; headers: Record<string, string> }[];
  };
  const ids = {} as Record<Kind, string>;
  await Promise.all(
    uploads.map(async (target) => {
      const put = await fetch(target.url, {
        method: 'PUT',
        headers: target.headers,
        body: new Uint8Array(images[target.kind] ?? new Uint8Array()),
      });
      expect(put.status, `PUT ${target.kind}`).toBe(200);
      ids[target.kind] = target.id;
    }),
  );
  return ids;
}

/** Keys of objects left in the staging bucket of direct uploads for one organisation. */
export async function stagedUploadKeys(orgId: string): Promise<string[]> {
  const { ListObjectsV2Command } = await import('@aws-sdk/client-s3');
  const store = testStore();
  const out = await store.clients.s3.send(
    new ListObjectsV2Command({ Bucket: store.config.uploadsBucketName, Prefix: `uploads/${orgId}/` }),
  );
  return (out.Contents ?? []).map((o) => o.Key ?? '');
}
