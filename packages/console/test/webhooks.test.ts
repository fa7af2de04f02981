import type { Role } from '@idv/store';
import { describe, expect, it } from 'vitest';
import { auditEntries } from '../../api/test/support.ts';
import { bearer, consoleApp, createTeam, signedIn, testStore } from './support.ts';

const secretOf = (html: string) => /data-testid="webhook-secret"[^>]*>([^<]+)</.exec(html)?.[1] ?? '';
const rowIds = (html: string) =>
  [...html.matchAll(/data-testid="webhook-row" data-id="([^"]+)"/g)].map((m) => m[1]);
const localApp = () => consoleApp({ webhooks: { allowLocalhost: true } });

describe('the webhooks page', () => {
  it('adds an endpoint with its secret shown once, lists it, deletes it (audited)', async () => {
    const team = await createTeam();
    const app = localApp();
    const browser = await signedIn(app, team, 'developer');
    await browser.get('/console/webhooks');
    const created = await browser.post('/console/webhooks', {
      url: 'http://localhost:9/hook',
      description: 'orders',
      csrf: browser.csrf(),
    });
    expect(created.status).toBe(201);
    const html = await created.text();
    expect(secretOf(html)).toMatch(/^whsec_/);
    const [id] = rowIds(html);
    expect(id).toMatch(/^whe_/);
    // Shown once; the API lists the same endpoint, without its secret.
    const list = await (await browser.get('/console/webhooks')).text();
    expect(list).not.toContain(secretOf(html));
    expect(rowIds(list)).toEqual([id]);
    const api = await (await app.request('/v1/webhooks', bearer(team.org.testKey))).json();
    expect(JSON.stringify(api)).toContain(id);
    expect(JSON.stringify(api)).not.toContain('whsec_');

    const deleted = await browser.post(`/console/webhooks/${id}/delete`, { csrf: browser.csrf() });
    expect(deleted.status).toBe(303);
    expect(rowIds(await (await browser.get('/console/webhooks')).text())).toEqual([]);
    expect(await testStore().webhookEndpoints.get(team.org.orgId, id ?? '')).toBeNull();
    const actions = (await auditEntries(team.org.orgId)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['webhook_endpoint.created', 'webhook_endpoint.deleted']));
  });

  it('refuses an address the API refuses (not HTTPS, private) with its reason', async () => {
    const team = await createTeam();
    const browser = await signedIn(consoleApp({ webhooks: { allowLocalhost: false } }), team, 'owner');
    await browser.get('/console/webhooks');
    for (const url of ['http://example.com/hook', 'https://10.0.0.1/hook', 'not a url']) {
      const res = await browser.post('/console/webhooks', { url, description: '', csrf: browser.csrf() });
      expect(res.status, url).toBe(400);
      const html = await res.text();
      expect(secretOf(html)).toBe('');
      expect(html).toContain('flash error');
    }
    expect(await testStore().webhookEndpoints.listForOrganisation(team.org.orgId)).toEqual([]);
  });

  it('shows the deliveries with their state, attempts, last status and last error', async () => {
    const team = await createTeam();
    const store = testStore();
    const endpoint = await store.webhookEndpoints.create({
      orgId: team.org.orgId,
      appId: team.org.appId,
      url: 'http://localhost:9/hook',
      description: '',
    });
    const deliveryId = `whd_${endpoint.id.slice(4)}a1`;
    await store.webhookDeliveries.createIfAbsent({
      id: deliveryId,
      eventId: 'evt_console1',
      endpointId: endpoint.id,
      orgId: team.org.orgId,
    });
    const claimedAt = new Date();
    expect(await store.webhookDeliveries.claim(deliveryId, 1, claimedAt)).toBe(true);
    await store.webhookDeliveries.recordOutcome(
      deliveryId,
      { attempt: 1, claimedAt: claimedAt.toISOString() },
      {
        status: 'pending',
        last_status_code: 503,
        last_error: 'HTTP 503 from the endpoint',
        next_attempt_at: new Date(Date.now() + 60_000).toISOString(),
      },
    );
    const browser = await signedIn(consoleApp(), team, 'admin');
    const res = await browser.get(`/console/webhooks/${endpoint.id}?lang=fr`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`data-testid="delivery-row" data-id="${deliveryId}" data-status="pending"`);
    expect(html).toContain('en attente');
    expect(html).toMatch(/data-testid="delivery-attempts">1</);
    expect(html).toContain('503');
    expect(html).toContain('HTTP 503 from the endpoint');
  });

  it("cannot see or delete another organisation's endpoint", async () => {
    const team = await createTeam();
    const other = await createTeam();
    const theirs = await testStore().webhookEndpoints.create({
      orgId: other.org.orgId,
      appId: other.org.appId,
      url: 'http://localhost:9/hook',
      description: '',
    });
    const browser = await signedIn(consoleApp(), team, 'owner');
    expect((await browser.get(`/console/webhooks/${theirs.id}`)).status).toBe(404);
    await browser.get('/console/webhooks');
    expect(
      (await browser.post(`/console/webhooks/${theirs.id}/delete`, { csrf: browser.csrf() })).status,
    ).toBe(404);
    expect(await testStore().webhookEndpoints.get(other.org.orgId, theirs.id)).not.toBeNull();
  });

  // The roles table's row "Manage API keys and webhooks", enforced by the server.
  for (const role of ['owner', 'admin', 'reviewer', 'developer'] as Role[]) {
    const allowed = role !== 'reviewer';
    it(`manage webhooks: ${role} ${allowed ? 'allowed' : 'refused with 403'}`, async () => {
      const team = await createTeam();
      const existing = await testStore().webhookEndpoints.create({
        orgId: team.org.orgId,
        appId: team.org.appId,
        url: 'http://localhost:9/existing',
        description: '',
      });
      const browser = await signedIn(localApp(), team, role);
      const nav = await (await browser.get('/console/reviews')).text();
      expect(nav.includes('href="/console/webhooks"')).toBe(allowed);
      const csrf = browser.csrf();
      expect((await browser.get('/console/webhooks')).status).toBe(allowed ? 200 : 403);
      expect((await browser.get(`/console/webhooks/${existing.id}`)).status).toBe(allowed ? 200 : 403);
      const create = await browser.post('/console/webhooks', {
        url: 'http://localhost:9/new',
        description: '',
        csrf,
      });
      expect(create.status).toBe(allowed ? 201 : 403);
      const remove = await browser.post(`/console/webhooks/${existing.id}/delete`, { csrf });
      expect(remove.status).toBe(allowed ? 303 : 403);
      const left = await testStore().webhookEndpoints.listForOrganisation(team.org.orgId);
      expect(left.map((e) => e.url)).toEqual(
        allowed ? ['http://localhost:9/new'] : ['http://localhost:9/existing'],
      );
    });
  }
});
