import { describe, expect, it } from 'vitest';
import { bearer, createTestOrganisation, testApp } from '../support.ts';

describe('rate limits (counted in DynamoDB)', () => {
  it('sets the headers on every call and answers 429 with retry-after past the per-key limit', async () => {
    const org = await createTestOrganisation();
    // A fixed clock keeps all calls inside one window.
    const now = () => new Date('2030-01-01T00:00:10Z');
    const app = testApp({ limits: { perKeyPerMinute: 3 }, now });
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await app.request('/v1/logs', bearer(org.testKey));
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('3');
      expect(res.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2030-01-01T00:01:00Z') / 1000));
      remaining.push(res.headers.get('x-ratelimit-remaining') ?? '');
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const limited = await app.request('/v1/logs', bearer(org.testKey));
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ error: { code: 'rate_limited', message: expect.any(String) } });
    expect(limited.headers.get('retry-after')).toBe('50');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');

    // Another key has its own allowance.
    expect((await app.request('/v1/logs', bearer(org.liveKey))).status).toBe(200);
  });

  it('counts a new window from zero', async () => {
    const org = await createTestOrganisation();
    let clock = new Date('2030-01-01T00:00:10Z');
    const app = testApp({ limits: { perKeyPerMinute: 1 }, now: () => clock });
    expect((await app.request('/v1/logs', bearer(org.testKey))).status).toBe(200);
    expect((await app.request('/v1/logs', bearer(org.testKey))).status).toBe(429);
    clock = new Date('2030-01-01T00:01:00Z');
    expect((await app.request('/v1/logs', bearer(org.testKey))).status).toBe(200);
  });

  it('limits calls without a valid key per IP address', async () => {
    // Distinct window per test run so that other tests' anonymous calls do not count.
    const now = () => new Date('2031-02-03T04:05:06Z');
    const app = testApp({ limits: { perIpPerMinute: 2 }, now });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await app.request('/v1/logs')).status);
    expect(statuses).toEqual([401, 401, 429]);
  });

  it('holds across two app instances (as across two Lambda instances)', async () => {
    const org = await createTestOrganisation();
    const now = () => new Date('2030-01-01T00:00:10Z');
    const first = testApp({ limits: { perKeyPerMinute: 2 }, now });
    const second = testApp({ limits: { perKeyPerMinute: 2 }, now });
    const results = await Promise.all([
      first.request('/v1/logs', bearer(org.testKey)),
      second.request('/v1/logs', bearer(org.testKey)),
      first.request('/v1/logs', bearer(org.testKey)),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 429]);
  });
});
