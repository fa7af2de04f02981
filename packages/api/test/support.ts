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
