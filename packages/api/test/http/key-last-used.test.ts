import { describe, expect, it } from 'vitest';
import { bearer, createTestOrganisation, testApp, testStore } from '../support.ts';

async function lastUsed(orgId: string, keyId: string) {
  const keys = await testStore().apiKeys.listForOrganisation(orgId);
  return keys.find((k) => k.id === keyId)?.last_used_at ?? null;
}

describe("a key's last use", () => {
  it('is recorded when the API accepts the key, at most once a minute', async () => {
    const org = await createTestOrganisation();
    expect(await lastUsed(org.orgId, org.testKeyId)).toBeNull();
    const t0 = new Date('2031-01-01T10:00:00.000Z');
    let now = t0;
    const app = testApp({ now: () => now });
    const call = () => app.request('/v1/logs', bearer(org.testKey));

    expect((await call()).status).toBe(200);
    expect(await lastUsed(org.orgId, org.testKeyId)).toBe(t0.toISOString());
    // A busy key: further calls within the minute write nothing.
    now = new Date(t0.getTime() + 30_000);
    await Promise.all([call(), call(), call()]);
    expect(await lastUsed(org.orgId, org.testKeyId)).toBe(t0.toISOString());
    // After the minute the next call moves it, once, even when several arrive together.
    const t1 = new Date(t0.getTime() + 61_000);
    now = t1;
    const results = await Promise.all([1, 2, 3].map(() => call()));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(await lastUsed(org.orgId, org.testKeyId)).toBe(t1.toISOString());
    // The other key of the organisation was never used.
    expect(await lastUsed(org.orgId, org.liveKeyId)).toBeNull();
  });

  it('writes at most once per minute even under concurrent calls (conditional update)', async () => {
    const org = await createTestOrganisation();
    const [key] = (await testStore().apiKeys.listForOrganisation(org.orgId)).filter(
      (k) => k.id === org.testKeyId,
    );
    if (!key) throw new Error('no key');
    const now = new Date('2031-02-01T10:00:00.000Z');
    // Several requests that all read "never used" before any of them wrote.
    const writes = await Promise.all(
      [1, 2, 3, 4].map(() => testStore().apiKeys.recordUse(key, org.testKey, now)),
    );
    expect(writes.filter(Boolean)).toHaveLength(1);
  });

  it('is never recorded for a revoked key', async () => {
    const org = await createTestOrganisation();
    await testStore().apiKeys.revoke(org.orgId, org.testKeyId);
    expect((await testApp().request('/v1/logs', bearer(org.testKey))).status).toBe(401);
    expect(await lastUsed(org.orgId, org.testKeyId)).toBeNull();
  });
});
