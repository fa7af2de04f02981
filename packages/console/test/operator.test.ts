import { randomBytes } from 'node:crypto';
import type { Organisation, Role } from '@idv/store';
import { describe, expect, it } from 'vitest';
import { documentPhoto, expectError, imageForm } from '../../api/test/support.ts';
import { Browser, bearer, consoleApp, createTeam, signedIn, testStore } from './support.ts';

type App = ReturnType<typeof consoleApp>;

/** A platform operator account made for the test, signed in on its own page. */
async function operatorBrowser(app: App): Promise<Browser> {
  const email = `operator+${randomBytes(6).toString('hex')}@example.com`;
  const password = randomBytes(12).toString('base64url');
  await testStore().operators.create({ email, password });
  const browser = new Browser(app);
  await browser.get('/console/operator/sign-in');
  const res = await browser.post('/console/operator/sign-in', { email, password, csrf: browser.csrf() });
  expect(res.status).toBe(303);
  expect(res.headers.get('location')).toBe('/console/operator');
  return browser;
}

async function act(browser: Browser, orgId: string, action: string, reason = '') {
  await browser.get(`/console/operator/orgs/${orgId}`);
  return browser.post(`/console/operator/orgs/${orgId}/${action}`, { reason, csrf: browser.csrf() });
}

async function operatorEntries(orgId: string) {
  const journal = await testStore().audit.list(orgId, 50);
  if (!journal.ok) throw new Error('journal refused');
  return journal.page.data.filter((e) => e.details.by === 'platform_operator');
}

const verify = async (key: string, app: App) =>
  app.request('/v1/verify', {
    method: 'POST',
    body: imageForm({ front: await documentPhoto('passport') }),
    ...bearer(key),
  });

describe('platform operator', () => {
  it('lists every organisation, newest first, page after page', async () => {
    const app = consoleApp();
    const team = await createTeam({ liveEnabled: false });
    const browser = await operatorBrowser(app);
    let path = '/console/operator';
    let found = false;
    // Other test files create organisations at the same time: follow the pages until ours.
    for (let page = 0; page < 40 && !found; page++) {
      const res = await browser.get(path);
      expect(res.status).toBe(200);
      const html = await res.text();
      found = html.includes(`data-testid="operator-org-row" data-id="${team.org.orgId}"`);
      const next = /href="(\/console\/operator\?cursor=[^"]+)"/.exec(html)?.[1];
      if (!next) break;
      path = next.replaceAll('&amp;', '&');
    }
    expect(found).toBe(true);
    const listed = await testStore().organisations.list(20);
    const dates = listed.ok ? listed.page.data.map((o: Organisation) => o.created_at) : [];
    expect(dates).toEqual([...dates].sort().reverse());
    // The "open by id" form leads to the organisation's page.
    const opened = await browser.get(`/console/operator/orgs?id=${team.org.orgId}`);
    expect(opened.headers.get('location')).toBe(`/console/operator/orgs/${team.org.orgId}`);
  });

  it('activates live mode once, audited; the owner can then create a live key', async () => {
    const app = consoleApp();
    const team = await createTeam({ liveEnabled: false });
    const owner = await signedIn(app, team, 'owner');
    await owner.get('/console/keys');
    expect((await owner.post('/console/keys', { mode: 'live', csrf: owner.csrf() })).status).toBe(403);

    const operator = await operatorBrowser(app);
    const page = await (await operator.get(`/console/operator/orgs/${team.org.orgId}`)).text();
    expect(page).toContain('data-testid="operator-activate-live"');
    const res = await act(operator, team.org.orgId, 'activate-live', 'contract signed');
    expect(res.status).toBe(303);
    const after = await (await operator.get(res.headers.get('location') ?? '')).text();
    expect(after).toContain('recorded in the audit journal');
    expect(after).not.toContain('data-testid="operator-activate-live"');
    expect((await testStore().organisations.get(team.org.orgId))?.live_enabled).toBe(true);
    const [entry] = await operatorEntries(team.org.orgId);
    expect(entry).toMatchObject({
      action: 'organisation.live_activated',
      actor: expect.stringMatching(/^opr_/),
      details: { live_enabled: true, reason: 'contract signed' },
    });
    expect(after).toContain('organisation.live_activated');

    // A second activation changes nothing and writes no second entry.
    const again = await operator.post(`/console/operator/orgs/${team.org.orgId}/activate-live`, {
      csrf: operator.csrf(),
    });
    expect(again.status).toBe(409);
    expect(await operatorEntries(team.org.orgId)).toHaveLength(1);

    await owner.get('/console/keys');
    const live = await owner.post('/console/keys', { mode: 'live', csrf: owner.csrf() });
    expect(live.status).toBe(201);
    expect(await live.text()).toMatch(/vn_live_/);
  });

  it('suspends an organisation: its keys get 402 account_suspended until the suspension is lifted', async () => {
    const app = consoleApp();
    const team = await createTeam();
    const operator = await operatorBrowser(app);
    expect((await act(operator, team.org.orgId, 'suspend', 'unpaid')).status).toBe(303);
    expect((await testStore().organisations.get(team.org.orgId))?.suspended).toBe(true);
    await expectError(await verify(team.org.testKey, app), 402, 'account_suspended');
    await expectError(await verify(team.org.liveKey, app), 402, 'account_suspended');
    // Reads still work, so the organisation keeps its results.
    expect((await app.request('/v1/verifications', bearer(team.org.testKey))).status).toBe(200);

    expect((await act(operator, team.org.orgId, 'unsuspend')).status).toBe(303);
    expect((await testStore().organisations.get(team.org.orgId))?.suspended).toBe(false);
    // No analyzer in this app: past the suspension check the call fails later, not with 402.
    expect((await verify(team.org.testKey, app)).status).not.toBe(402);
    const actions = (await operatorEntries(team.org.orgId)).map((e) => e.action);
    expect(actions).toEqual(['organisation.unsuspended', 'organisation.suspended']);
  });

  const ROLES: Role[] = ['owner', 'admin', 'reviewer', 'developer'];
  for (const role of ROLES) {
    it(`refuses an organisation ${role} with 403, pages and actions`, async () => {
      const app = consoleApp();
      const team = await createTeam({ liveEnabled: false });
      const browser = await signedIn(app, team, role);
      // The session's own CSRF token: the refusal is for the role, not for the form.
      await browser.get('/console/reviews');
      const csrf = browser.csrf();
      expect((await browser.get('/console/operator')).status).toBe(403);
      expect((await browser.get(`/console/operator/orgs/${team.org.orgId}`)).status).toBe(403);
      for (const action of ['activate-live', 'suspend']) {
        const res = await browser.post(`/console/operator/orgs/${team.org.orgId}/${action}`, { csrf });
        expect(res.status).toBe(403);
      }
      expect(await testStore().organisations.get(team.org.orgId)).toMatchObject({
        live_enabled: false,
        suspended: false,
      });
      expect(await operatorEntries(team.org.orgId)).toHaveLength(0);
    });
  }

  it('sends a visitor without a session to the operator sign-in, and refuses forms without CSRF', async () => {
    const app = consoleApp();
    const team = await createTeam({ liveEnabled: false });
    const anonymous = new Browser(app);
    expect((await anonymous.get('/console/operator')).headers.get('location')).toBe(
      '/console/operator/sign-in',
    );
    expect((await anonymous.post(`/console/operator/orgs/${team.org.orgId}/activate-live`, {})).status).toBe(
      401,
    );

    const operator = await operatorBrowser(app);
    const forged = await operator.post(`/console/operator/orgs/${team.org.orgId}/activate-live`, {
      csrf: 'x'.repeat(32),
    });
    expect(forged.status).toBe(403);
    expect((await testStore().organisations.get(team.org.orgId))?.live_enabled).toBe(false);
    // An operator is not an organisation member: the organisation pages are not theirs.
    expect((await operator.get('/console/reviews')).headers.get('location')).toBe('/console/sign-in');
    // Unknown or malformed organisation ids name nothing.
    expect((await operator.get('/console/operator/orgs/org_doesnotexist')).status).toBe(404);
    expect((await operator.get('/console/operator/orgs/nope')).status).toBe(404);
  });

  it('has its own sign-in: an organisation password does not open it, and failures lock it out', async () => {
    const app = consoleApp({}, { maxFailures: 2, windowSeconds: 60 });
    const team = await createTeam();
    const browser = new Browser(app);
    await browser.get('/console/operator/sign-in');
    const res = await browser.post('/console/operator/sign-in', {
      email: team.emails.owner,
      password: team.password,
      csrf: browser.csrf(),
    });
    expect(res.status).toBe(401);
    await browser.post('/console/operator/sign-in', {
      email: team.emails.owner,
      password: 'wrong',
      csrf: browser.csrf(),
    });
    const locked = await browser.post('/console/operator/sign-in', {
      email: team.emails.owner,
      password: team.password,
      csrf: browser.csrf(),
    });
    expect(locked.status).toBe(429);
    // The organisation sign-in of the same email is counted apart.
    expect((await new Browser(app).signIn(team.emails.owner, team.password)).status).toBe(303);
  });
});
