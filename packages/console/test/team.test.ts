import type { Role } from '@idv/store';
import { describe, expect, it } from 'vitest';
import { auditEntries } from '../../api/test/support.ts';
import { Browser, consoleApp, createTeam, signedIn, testStore } from './support.ts';

const linkOf = (html: string) => /data-testid="invite-link"[^>]*>([^<]+)</.exec(html)?.[1] ?? '';
const idOf = async (email: string) => (await testStore().users.getByEmail(email))?.id ?? '';

describe('the team page', () => {
  it('invites with a one-time link: the person sets a password once, then signs in', async () => {
    const team = await createTeam();
    const app = consoleApp();
    const owner = await signedIn(app, team, 'owner');
    await owner.get('/console/team');
    const email = `new+${team.org.orgId}@example.com`.toLowerCase();
    const invited = await owner.post('/console/team', { email, role: 'reviewer', csrf: owner.csrf() });
    expect(invited.status).toBe(201);
    const html = await invited.text();
    const link = new URL(linkOf(html));
    expect(link.pathname).toMatch(/^\/console\/invitation\/[A-Za-z0-9_-]{40,}$/);
    expect(html).toMatch(/data-role="reviewer"/);
    // Shown once only.
    expect(await (await owner.get('/console/team')).text()).not.toContain(link.pathname);
    // No password yet: nobody can sign in as the invited person.
    expect(await testStore().users.authenticate(email, '')).toBeNull();

    const guest = new Browser(app);
    expect((await guest.get(link.pathname)).status).toBe(200);
    expect((await guest.post(link.pathname, { password: 'short' })).status).toBe(400);
    const password = 'a long enough password';
    expect((await guest.post(link.pathname, { password })).status).toBe(200);
    expect((await guest.post(link.pathname, { password: 'another long password' })).status).toBe(404);
    expect((await guest.get(link.pathname)).status).toBe(404);
    const joined = await new Browser(app).signIn(email, password);
    expect(joined.status).toBe(303);
    expect(joined.headers.get('location')).toBe('/console/reviews');

    const again = await owner.post('/console/team', { email, role: 'admin', csrf: owner.csrf() });
    expect(again.status).toBe(409);
    expect(linkOf(await again.text())).toBe('');
    const entry = (await auditEntries(team.org.orgId)).find((e) => e.action === 'team.invited');
    expect(entry).toMatchObject({
      actor: await idOf(team.emails.owner),
      details: { email, role: 'reviewer' },
    });
  });

  it('changes a role and removes a member, at once for their session (audited)', async () => {
    const team = await createTeam();
    const app = consoleApp();
    const admin = await signedIn(app, team, 'admin');
    const reviewer = await signedIn(app, team, 'reviewer');
    await admin.get('/console/team');
    const reviewerId = await idOf(team.emails.reviewer);
    const changed = await admin.post(`/console/team/${reviewerId}/role`, {
      role: 'developer',
      csrf: admin.csrf(),
    });
    expect(changed.status).toBe(303);
    expect((await testStore().users.getByEmail(team.emails.reviewer))?.role).toBe('developer');
    // The new role applies at the next request: a developer sees keys, not the decision form.
    expect((await reviewer.get('/console/keys')).status).toBe(200);

    const removed = await admin.post(`/console/team/${reviewerId}/remove`, { csrf: admin.csrf() });
    expect(removed.status).toBe(303);
    expect(await testStore().users.getByEmail(team.emails.reviewer)).toBeNull();
    const after = await reviewer.get('/console/reviews');
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe('/console/sign-in');
    const actions = (await auditEntries(team.org.orgId)).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['team.role_changed', 'team.removed']));
  });

  it('never removes or demotes the last owner; only owners touch the owner role', async () => {
    const team = await createTeam();
    const app = consoleApp();
    const owner = await signedIn(app, team, 'owner');
    const admin = await signedIn(app, team, 'admin');
    await owner.get('/console/team');
    await admin.get('/console/team');
    const ownerId = await idOf(team.emails.owner);
    const adminId = await idOf(team.emails.admin);

    expect(
      (await owner.post(`/console/team/${ownerId}/role`, { role: 'admin', csrf: owner.csrf() })).status,
    ).toBe(409);
    expect((await owner.post(`/console/team/${ownerId}/remove`, { csrf: owner.csrf() })).status).toBe(409);
    expect((await testStore().users.getByEmail(team.emails.owner))?.role).toBe('owner');

    // An admin can neither touch an owner nor make one.
    expect((await admin.post(`/console/team/${ownerId}/remove`, { csrf: admin.csrf() })).status).toBe(403);
    expect(
      (await admin.post(`/console/team/${adminId}/role`, { role: 'owner', csrf: admin.csrf() })).status,
    ).toBe(403);
    const email = `boss+${team.org.orgId}@example.com`.toLowerCase();
    expect((await admin.post('/console/team', { email, role: 'owner', csrf: admin.csrf() })).status).toBe(
      403,
    );

    // With a second owner, the first may step down.
    expect(
      (await owner.post(`/console/team/${adminId}/role`, { role: 'owner', csrf: owner.csrf() })).status,
    ).toBe(303);
    expect(
      (await owner.post(`/console/team/${ownerId}/role`, { role: 'admin', csrf: owner.csrf() })).status,
    ).toBe(303);
    expect(await testStore().users.ownerCount(team.org.orgId)).toBe(1);
  });

  it('of two owners demoting each other at once, exactly one succeeds', async () => {
    const team = await createTeam();
    const store = testStore();
    const a = await idOf(team.emails.owner);
    const b = await idOf(team.emails.admin);
    expect((await store.users.changeRole(team.org.orgId, b, 'owner')).ok).toBe(true);
    const results = await Promise.all([
      store.users.changeRole(team.org.orgId, a, 'admin'),
      store.users.changeRole(team.org.orgId, b, 'admin'),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const owners = (await store.users.listForOrganisation(team.org.orgId)).filter((u) => u.role === 'owner');
    expect(owners).toHaveLength(1);
    expect(await store.users.ownerCount(team.org.orgId)).toBe(1);
  });

  for (const role of ['owner', 'admin', 'reviewer', 'developer'] as Role[]) {
    const allowed = role === 'owner' || role === 'admin';
    it(`manage the team: ${role} ${allowed ? 'allowed' : 'refused with 403'}`, async () => {
      const team = await createTeam();
      const browser = await signedIn(consoleApp(), team, role);
      const nav = await (await browser.get('/console/reviews')).text();
      expect(nav.includes('href="/console/team"')).toBe(allowed);
      const csrf = browser.csrf();
      const target = await idOf(
        team.emails.developer === team.emails[role] ? team.emails.reviewer : team.emails.developer,
      );
      expect((await browser.get('/console/team')).status).toBe(allowed ? 200 : 403);
      const email = `x+${team.org.orgId}@example.com`.toLowerCase();
      expect((await browser.post('/console/team', { email, role: 'reviewer', csrf })).status).toBe(
        allowed ? 201 : 403,
      );
      expect((await browser.post(`/console/team/${target}/role`, { role: 'reviewer', csrf })).status).toBe(
        allowed ? 303 : 403,
      );
      expect((await browser.post(`/console/team/${target}/remove`, { csrf })).status).toBe(
        allowed ? 303 : 403,
      );
      const members = await testStore().users.listForOrganisation(team.org.orgId);
      expect(members.some((m) => m.id === target)).toBe(!allowed);
      expect(members.some((m) => m.email === email)).toBe(allowed);
    });
  }
});
