import type { Role } from '@idv/store';
import { describe, expect, it } from 'vitest';
import { auditEntries } from '../../api/test/support.ts';
import { consoleApp, createTeam, signedIn, testStore } from './support.ts';

describe('the organisation settings', () => {
  it('changes the image retention within 1 to 365 days, audited with old and new values', async () => {
    const team = await createTeam();
    const browser = await signedIn(consoleApp(), team, 'admin');
    const page = await (await browser.get('/console/settings')).text();
    expect(page).toMatch(
      /data-testid="retention-days" value="30"|value="30"[^>]*data-testid="retention-days"/,
    );
    const saved = await browser.post('/console/settings', { retention_days: '90', csrf: browser.csrf() });
    expect(saved.status).toBe(303);
    expect((await testStore().organisations.get(team.org.orgId))?.retention_days).toBe(90);
    const admin = await testStore().users.getByEmail(team.emails.admin);
    const entry = (await auditEntries(team.org.orgId)).find(
      (e) => e.action === 'organisation.retention_changed',
    );
    expect(entry).toMatchObject({
      actor: admin?.id,
      details: { old_retention_days: 30, new_retention_days: 90 },
    });

    for (const bad of ['0', '366', '12.5', '-1', 'abc', '']) {
      const res = await browser.post('/console/settings', { retention_days: bad, csrf: browser.csrf() });
      expect(res.status, bad).toBe(400);
    }
    expect((await testStore().organisations.get(team.org.orgId))?.retention_days).toBe(90);
  });

  for (const role of ['owner', 'admin', 'reviewer', 'developer'] as Role[]) {
    const allowed = role === 'owner' || role === 'admin';
    it(`manage the organisation's retention: ${role} ${allowed ? 'allowed' : 'refused with 403'}`, async () => {
      const team = await createTeam();
      const browser = await signedIn(consoleApp(), team, role);
      const nav = await (await browser.get('/console/reviews')).text();
      expect(nav.includes('href="/console/settings"')).toBe(allowed);
      const csrf = browser.csrf();
      expect((await browser.get('/console/settings')).status).toBe(allowed ? 200 : 403);
      const res = await browser.post('/console/settings', { retention_days: '7', csrf });
      expect(res.status).toBe(allowed ? 303 : 403);
      expect((await testStore().organisations.get(team.org.orgId))?.retention_days).toBe(allowed ? 7 : 30);
    });
  }
});
