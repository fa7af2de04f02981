import { describe, expect, it } from 'vitest';
import { bearer, createTestOrganisation, testApp, testStore } from '../support.ts';

describe('secret-key authentication', () => {
  const app = testApp();

  it('accepts a valid test key and a valid live key', async () => {
    const org = await createTestOrganisation();
    for (const key of [org.testKey, org.liveKey]) {
      const res = await app.request('/v1/logs', bearer(key));
      expect(res.status).toBe(200);
    }
  });

  const refusals: [string, Record<string, string>][] = [
    ['no Authorization header', {}],
    ['a malformed header', { authorization: 'Token abc' }],
    ['an empty bearer', { authorization: 'Bearer ' }],
    ['an unknown key of the right shape', { authorization: `Bearer vn_test_${'a'.repeat(40)}` }],
    ['a key that is too short', { authorization: 'Bearer vn_test_abc' }],
  ];
  for (const [name, headers] of refusals) {
    it(`refuses ${name} with the 401 envelope`, async () => {
      const res = await app.request('/v1/logs', { headers });
      expect(res.status).toBe(401);
      const body = await res.json();
      expect(Object.keys(body)).toEqual(['error']);
      expect(Object.keys(body.error).sort()).toEqual(['code', 'message']);
      expect(body.error.code).toBe('unauthorized');
    });
  }

  it('stops accepting a key on the very next request after revocation', async () => {
    const org = await createTestOrganisation();
    expect((await app.request('/v1/logs', bearer(org.testKey))).status).toBe(200);
    expect(await testStore().apiKeys.revoke(org.orgId, org.testKeyId)).toBe(true);
    const res = await app.request('/v1/logs', bearer(org.testKey));
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe('unauthorized');
    // The other key of the organisation is unaffected.
    expect((await app.request('/v1/logs', bearer(org.liveKey))).status).toBe(200);
  });

  it("cannot revoke another organisation's key", async () => {
    const a = await createTestOrganisation();
    const b = await createTestOrganisation();
    expect(await testStore().apiKeys.revoke(b.orgId, a.testKeyId)).toBe(false);
    expect((await app.request('/v1/logs', bearer(a.testKey))).status).toBe(200);
  });

  it('stores only a hash and a short display prefix of each key', async () => {
    const org = await createTestOrganisation();
    const keys = await testStore().apiKeys.listForOrganisation(org.orgId);
    expect(keys).toHaveLength(2);
    const serialised = JSON.stringify(keys);
    expect(serialised).not.toContain(org.testKey);
    expect(serialised).not.toContain(org.liveKey);
    for (const key of keys) expect(key.display_prefix).toMatch(/^vn_(test|live)_.{4}…$/);
  });

  it('makes keys with at least 32 random characters after the prefix', async () => {
    const org = await createTestOrganisation();
    expect(org.testKey).toMatch(/^vn_test_[A-Za-z0-9]{32,}$/);
    expect(org.liveKey).toMatch(/^vn_live_[A-Za-z0-9]{32,}$/);
  });
});
