import { newId } from '@idv/core';
import type { Role } from '@idv/store';
import { describe, expect, it } from 'vitest';
import { bearer, consoleApp, createTeam, signedIn, testStore } from './support.ts';

const ids = (html: string, testid: string) =>
  [...html.matchAll(new RegExp(`data-testid="${testid}" data-id="([^"]+)"`, 'g'))].map((m) => m[1]);
const nextHref = (html: string) =>
  (/href="([^"]+)" data-testid="next-page"/.exec(html)?.[1] ?? '').replaceAll('&amp;', '&');

describe('the request logs page', () => {
  it('lists the API calls of a mode with their metadata, filtered by status', async () => {
    const team = await createTeam();
    const app = consoleApp();
    expect((await app.request('/v1/logs', bearer(team.org.testKey))).status).toBe(200);
    expect((await app.request('/v1/verifications/vrf_missing000', bearer(team.org.testKey))).status).toBe(
      404,
    );
    const browser = await signedIn(app, team, 'developer');
    const html = await (await browser.get('/console/logs?mode=test')).text();
    expect(ids(html, 'log-row')).toHaveLength(2);
    expect(html).toContain('/v1/verifications/:id');
    expect(html).toContain('not_found');
    expect(html).toContain(team.org.testKeyId);
    const only404 = await (await browser.get('/console/logs?mode=test&status=404')).text();
    expect(ids(only404, 'log-row')).toHaveLength(1);
    expect(ids(await (await browser.get('/console/logs?mode=live')).text(), 'log-row')).toHaveLength(0);
    expect((await browser.get('/console/logs?status=abc')).status).toBe(400);
    expect((await browser.get('/console/logs?mode=test&cursor=bad')).status).toBe(400);
  });

  it('pages with the store cursor', async () => {
    const team = await createTeam();
    const store = testStore();
    // Recent: entries past their 90 days are hidden.
    const base = Date.now() - 120_000;
    for (let i = 0; i < 53; i++) {
      await store.requestLogs.record(team.org.orgId, {
        id: newId('req'),
        method: 'GET',
        route: '/v1/logs',
        status: 200,
        error_code: null,
        key: team.org.testKeyId,
        mode: 'test',
        duration_ms: 3,
        resource_id: null,
        created_at: new Date(base + i * 1000).toISOString(),
      });
    }
    const browser = await signedIn(consoleApp(), team, 'admin');
    const first = await (await browser.get('/console/logs?mode=test')).text();
    expect(ids(first, 'log-row')).toHaveLength(50);
    const second = await (await browser.get(nextHref(first))).text();
    expect(ids(second, 'log-row')).toHaveLength(3);
    expect(ids(second, 'log-row').some((id) => ids(first, 'log-row').includes(id))).toBe(false);
  });
});

describe('the audit journal page', () => {
  it('lists every entry newest first, naming people, paged with the store cursor', async () => {
    const team = await createTeam();
    const store = testStore();
    const owner = await store.users.getByEmail(team.emails.owner);
    const base = Date.parse('2020-01-01T00:00:00.000Z');
    for (let i = 0; i < 52; i++) {
      await store.audit.record(
        {
          org_id: team.org.orgId,
          action: 'api_key.created',
          actor: owner?.id ?? '',
          resource_id: `key_${i}`,
          details: { n: i },
        },
        new Date(base + i * 1000),
      );
    }
    const browser = await signedIn(consoleApp(), team, 'owner');
    const first = await (await browser.get('/console/audit')).text();
    expect(ids(first, 'audit-row')).toHaveLength(50);
    expect(first).toContain(team.emails.owner);
    expect(first.indexOf('key_51')).toBeLessThan(first.indexOf('key_50'));
    const second = await (await browser.get(nextHref(first))).text();
    expect(ids(second, 'audit-row')).toHaveLength(2);
    expect(second).toContain('key_0');
    expect((await browser.get('/console/audit?cursor=bad')).status).toBe(400);
  });
});

describe('the roles table, for the journals', () => {
  for (const role of ['owner', 'admin', 'reviewer', 'developer'] as Role[]) {
    const logs = role !== 'reviewer';
    const audit = role === 'owner' || role === 'admin';
    it(`request logs: ${role} ${logs ? 'allowed' : 'refused'}; audit: ${role} ${audit ? 'allowed' : 'refused'}`, async () => {
      const team = await createTeam();
      const browser = await signedIn(consoleApp(), team, role);
      const nav = await (await browser.get('/console/reviews')).text();
      expect(nav.includes('href="/console/logs"')).toBe(logs);
      expect(nav.includes('href="/console/audit"')).toBe(audit);
      expect((await browser.get('/console/logs')).status).toBe(logs ? 200 : 403);
      expect((await browser.get('/console/audit')).status).toBe(audit ? 200 : 403);
    });
  }
});
