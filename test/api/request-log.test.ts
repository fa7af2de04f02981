import { describe, expect, it } from 'vitest';
import { bearer, createTestOrganisation, testApp } from '../support/stack.ts';

describe('request log and GET /v1/logs', () => {
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

  it('paginates with a cursor and filters by status and route', async () => {
    const org = await createTestOrganisation();
    const app = testApp();
    for (let i = 0; i < 5; i++) await app.request('/v1/logs', bearer(org.testKey));

    const first = await (await app.request('/v1/logs?limit=2', bearer(org.testKey))).json();
    expect(first.data).toHaveLength(2);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await (
      await app.request(`/v1/logs?limit=2&cursor=${first.next_cursor}`, bearer(org.testKey))
    ).json();
    expect(second.data).toHaveLength(2);
    const ids = [...first.data, ...second.data].map((e: { id: string }) => e.id);
    expect(new Set(ids).size).toBe(4);
    expect(first.data[0].created_at >= second.data[0].created_at).toBe(true);

    await app.request('/v1/logs?limit=0', bearer(org.testKey));
    const failures = await (await app.request('/v1/logs?status=400', bearer(org.testKey))).json();
    expect(failures.data.length).toBe(1);
    expect(failures.data[0].status).toBe(400);
    const none = await (await app.request('/v1/logs?route=/v1/verify', bearer(org.testKey))).json();
    expect(none.data).toEqual([]);
  });

  it('keeps organisations apart', async () => {
    const a = await createTestOrganisation();
    const b = await createTestOrganisation();
    const app = testApp();
    await app.request('/v1/logs', bearer(a.testKey));
    const seenByB = await (await app.request('/v1/logs', bearer(b.testKey))).json();
    expect(seenByB.data).toEqual([]);
  });

  it('does not log calls that fail authentication (they belong to no organisation)', async () => {
    const org = await createTestOrganisation();
    const app = testApp();
    await app.request('/v1/logs', { headers: { authorization: `Bearer vn_test_${'z'.repeat(40)}` } });
    const own = await (await app.request('/v1/logs', bearer(org.testKey))).json();
    expect(own.data).toEqual([]);
  });
});
