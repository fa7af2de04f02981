import { describe, expect, it } from 'vitest';
import {
  bearer,
  createTestOrganisation,
  expectError,
  expectWrongCredentialsRefused,
  testApp,
} from '../../support.ts';

describe('GET /v1/logs (listLogs)', () => {
  const app = testApp();

  it('paginates with a cursor and filters by status and route', async () => {
    const org = await createTestOrganisation();
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

  it('refuses bad query parameters with 400 naming the field', async () => {
    const org = await createTestOrganisation();
    for (const query of ['limit=abc', 'limit=0', 'limit=101', 'status=99', 'status=abc']) {
      const message = await expectError(
        await app.request(`/v1/logs?${query}`, bearer(org.testKey)),
        400,
        'invalid_request',
      );
      expect(message).toContain(query.split('=')[0]);
    }
  });

  it('400 for a forged pagination cursor, never a 500 or another partition', async () => {
    const org = await createTestOrganisation();
    const forged = Buffer.from(JSON.stringify({ pk: 'LOG#org_other#test', sk: 'x' })).toString('base64url');
    const message = await expectError(
      await app.request(`/v1/logs?cursor=${forged}`, bearer(org.testKey)),
      400,
      'invalid_request',
    );
    expect(message).toContain('cursor');
    await expectError(await app.request('/v1/logs?cursor=%%%', bearer(org.testKey)), 400, 'invalid_request');
  });

  it("keeps organisations apart, and each key's mode apart", async () => {
    const a = await createTestOrganisation();
    const b = await createTestOrganisation();
    await app.request('/v1/logs', bearer(a.testKey));
    await app.request('/v1/logs', bearer(a.testKey));
    expect((await (await app.request('/v1/logs', bearer(b.testKey))).json()).data).toEqual([]);
    const live = await (await app.request('/v1/logs', bearer(a.liveKey))).json();
    expect(live.data).toEqual([]);
  });

  it('refuses every wrong credential with 401 unauthorized', async () => {
    await expectWrongCredentialsRefused((headers) => app.request('/v1/logs', { headers }));
  });
});
