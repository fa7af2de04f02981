import { describe, expect, it } from 'vitest';
import { bearer, createTestOrganisation, testApp } from '../support.ts';

describe('request log middleware', () => {
  it("records metadata of each authenticated call, newest first, in the key's mode only", async () => {
    const org = await createTestOrganisation();
    const app = testApp();
    await app.request('/v1/logs?limit=5', bearer(org.testKey));
    await app.request('/v1/logs?limit=abc', bearer(org.testKey)); // a 400, logged with its code
    await app.request('/v1/logs', bearer(org.liveKey));

    const res = await app.request('/v1/logs', bearer(org.testKey));
    const { data, next_cursor } = await res.json();
    expect(next_cursor).toBeNull();
    expect(data).toHaveLength(2);
    const [newest, oldest] = data;
    expect(newest).toMatchObject({
      method: 'GET',
      route: '/v1/logs',
      status: 400,
      error_code: 'invalid_request',
      mode: 'test',
      key: org.testKeyId,
    });
    expect(oldest).toMatchObject({ status: 200, error_code: null, mode: 'test' });
    for (const entry of data) {
      expect(entry.id).toMatch(/^req_[a-z0-9]+$/);
      expect(entry.created_at).toMatch(/Z$/);
      expect(Number.isInteger(entry.duration_ms)).toBe(true);
      expect(Object.keys(entry).sort()).toEqual(
        [
          'created_at',
          'duration_ms',
          'error_code',
          'id',
          'key',
          'method',
          'mode',
          'resource_id',
          'route',
          'status',
        ].sort(),
      );
    }

    const live = await (await app.request('/v1/logs', bearer(org.liveKey))).json();
    expect(live.data).toHaveLength(1);
    expect(live.data[0].mode).toBe('live');
  });

  it('records the resource a call read, and the route pattern rather than the path', async () => {
    const org = await createTestOrganisation();
    const app = testApp();
    const missing = 'vrf_doesnotexist0000';
    await app.request(`/v1/verifications/${missing}`, bearer(org.testKey));
    const { data } = await (await app.request('/v1/logs', bearer(org.testKey))).json();
    expect(data[0]).toMatchObject({
      route: '/v1/verifications/:id',
      status: 404,
      error_code: 'not_found',
    });
    expect(JSON.stringify(data)).not.toContain(missing);
  });

  it('does not log calls that fail authentication (they belong to no organisation)', async () => {
    const org = await createTestOrganisation();
    const app = testApp();
    await app.request('/v1/logs', { headers: { authorization: `Bearer vn_test_${'z'.repeat(40)}` } });
    const own = await (await app.request('/v1/logs', bearer(org.testKey))).json();
    expect(own.data).toEqual([]);
  });
});
