import type { Role } from '@idv/store';
import { describe, expect, it } from 'vitest';
import { auditEntries } from '../../api/test/support.ts';
import { bearer, consoleApp, createTeam, signedIn } from './support.ts';

const secretOf = (html: string) => /data-testid="key-secret"[^>]*>([^<]+)</.exec(html)?.[1] ?? '';
const rowIds = (html: string) =>
  [...html.matchAll(/data-testid="key-row" data-id="([^"]+)"/g)].map((m) => m[1]);

describe('the API keys page', () => {
  it('creates a key shown once, which works on the API until revoked (then 401)', async () => {
    const team = await createTeam();
    const app = consoleApp();
    const browser = await signedIn(app, team, 'developer');
    const page = await (await browser.get('/console/keys')).text();
    for (const id of ['key-create', 'key-mode']) expect(page).toContain(`data-testid="${id}"`);
    const before = rowIds(page);

    const created = await browser.post('/console/keys', { mode: 'test', csrf: browser.csrf() });
    expect(created.status).toBe(201);
    const html = await created.text();
    const secret = secretOf(html);
    expect(secret).toMatch(/^vn_test_/);
    const newRows = rowIds(html).filter((id) => !before.includes(id));
    expect(newRows).toHaveLength(1);
    expect(html).toContain('data-testid="key-revoke"');
    // Shown once: the list page never shows it again.
    expect(await (await browser.get('/console/keys')).text()).not.toContain(secret);

    // Its last use: never, until the API accepted it.
    const row = (html: string) => html.slice(html.indexOf(`data-id="${newRows[0]}"`));
    const usedCell = (html: string) => /data-testid="key-last-used">([^<]+)</.exec(row(html))?.[1];
    expect(usedCell(await (await browser.get('/console/keys')).text())).toBe('never');
    expect((await app.request('/v1/logs', bearer(secret))).status).toBe(200);
    expect(usedCell(await (await browser.get('/console/keys')).text())).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d$/,
    );
    const revoked = await browser.post(`/console/keys/${newRows[0]}/revoke`, { csrf: browser.csrf() });
    expect(revoked.status).toBe(303);
    const after = await app.request('/v1/logs', bearer(secret));
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ error: { code: 'unauthorized' } });

    const actions = (await auditEntries(team.org.orgId)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['api_key.created', 'api_key.revoked']));
  });

  it('refuses a live key before live mode is active (403), allows it after', async () => {
    const team = await createTeam({ liveEnabled: false });
    const browser = await signedIn(consoleApp(), team, 'owner');
    await browser.get('/console/keys');
    const csrf = browser.csrf();
    const refused = await browser.post('/console/keys', { mode: 'live', csrf });
    expect(refused.status).toBe(403);
    expect(secretOf(await refused.text())).toBe('');

    const live = await createTeam({ liveEnabled: true });
    const other = await signedIn(consoleApp(), live, 'admin');
    await other.get('/console/keys');
    const ok = await other.post('/console/keys', { mode: 'live', csrf: other.csrf() });
    expect(ok.status).toBe(201);
    expect(secretOf(await ok.text())).toMatch(/^vn_live_/);
  });

  it('cannot revoke a key of another organisation', async () => {
    const team = await createTeam();
    const other = await createTeam();
    const browser = await signedIn(consoleApp(), team, 'owner');
    await browser.get('/console/keys');
    const res = await browser.post(`/console/keys/${other.org.testKeyId}/revoke`, { csrf: browser.csrf() });
    expect(res.status).toBe(404);
    expect((await consoleApp().request('/v1/logs', bearer(other.org.testKey))).status).toBe(200);
  });

  // The roles table's row "Manage API keys and webhooks", enforced by the server.
  for (const role of ['owner', 'admin', 'reviewer', 'developer'] as Role[]) {
    const allowed = role !== 'reviewer';
    it(`manage API keys: ${role} ${allowed ? 'allowed' : 'refused with 403'}`, async () => {
      const team = await createTeam();
      const browser = await signedIn(consoleApp(), team, role);
      await browser.get('/console/reviews');
      const csrf = browser.csrf();
      expect((await browser.get('/console/keys')).status).toBe(allowed ? 200 : 403);
      expect((await browser.post('/console/keys', { mode: 'test', csrf })).status).toBe(allowed ? 201 : 403);
      const revoke = await browser.post(`/console/keys/${team.org.testKeyId}/revoke`, { csrf });
      expect(revoke.status).toBe(allowed ? 303 : 403);
      const status = (await consoleApp().request('/v1/logs', bearer(team.org.testKey))).status;
      expect(status).toBe(allowed ? 401 : 200);
    });
  }
});
