import { describe, expect, it } from 'vitest';
import { auditEntries } from '../../api/test/support.ts';
import { consoleApp, createTeam, seedVerification, signedIn, testStore } from './support.ts';

function queueIds(html: string): string[] {
  return [...html.matchAll(/data-testid="review-item" data-id="([^"]+)"/g)].map((m) => m[1] ?? '');
}

describe('the review queue page', () => {
  it('lists verdict review with no decision, oldest first, with the decide form test ids', async () => {
    const team = await createTeam();
    const older = await seedVerification(team.org, 'live');
    await new Promise((r) => setTimeout(r, 5));
    const newer = await seedVerification(team.org, 'test');
    const decided = await seedVerification(team.org, 'test');
    const app = consoleApp();
    const browser = await signedIn(app, team, 'reviewer');
    await browser.get('/console/reviews');
    await browser.post(`/console/reviews/${decided.id}/decision`, {
      decision: 'reject',
      csrf: browser.csrf(),
    });

    const html = await (await browser.get('/console/reviews')).text();
    expect(queueIds(html)).toEqual([older.id, newer.id]);
    for (const id of ['review-note', 'review-approve', 'review-reject'])
      expect(html).toContain(`data-testid="${id}"`);
    expect(html).toContain('name="viewport"');

    const other = await createTeam();
    const theirs = await signedIn(app, other, 'owner');
    expect(queueIds(await (await theirs.get('/console/reviews')).text())).toEqual([]);
  });

  it('decides with a note: final_verdict, audit by the user, gone from the queue; a second decision is 409', async () => {
    const team = await createTeam();
    const v = await seedVerification(team.org, 'test');
    const browser = await signedIn(consoleApp(), team, 'admin');
    await browser.get('/console/reviews');
    const res = await browser.post(`/console/reviews/${v.id}/decision`, {
      decision: 'reject',
      note: 'the photo was replaced',
      csrf: browser.csrf(),
    });
    expect(res.status).toBe(303);
    const stored = await testStore().verifications.getById(v.id);
    expect(stored?.verification).toMatchObject({ verdict: 'review', final_verdict: 'rejected' });
    const admin = await testStore().users.getByEmail(team.emails.admin);
    const [entry] = await auditEntries(team.org.orgId);
    expect(entry).toMatchObject({ actor: admin?.id, details: { note: 'the photo was replaced' } });
    const page = await (await browser.get('/console/reviews?decided=1')).text();
    expect(queueIds(page)).toEqual([]);
    expect(page).toContain('Decision recorded');

    const again = await browser.post(`/console/reviews/${v.id}/decision`, {
      decision: 'approve',
      csrf: browser.csrf(),
    });
    expect(again.status).toBe(409);
    expect((await testStore().verifications.getById(v.id))?.verification.final_verdict).toBe('rejected');
  });

  it('refuses a decision without the CSRF token, from a foreign origin, or with a note over 2000', async () => {
    const team = await createTeam();
    const v = await seedVerification(team.org, 'test');
    const browser = await signedIn(consoleApp(), team, 'owner');
    await browser.get('/console/reviews');
    const csrf = browser.csrf();
    const path = `/console/reviews/${v.id}/decision`;
    expect((await browser.post(path, { decision: 'approve' })).status).toBe(403);
    expect((await browser.post(path, { decision: 'approve', csrf: 'x'.repeat(32) })).status).toBe(403);
    const foreign = await browser.post(
      path,
      { decision: 'approve', csrf },
      { origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    const tooLong = await browser.post(path, {
      decision: 'approve',
      note: 'n'.repeat(2001),
      csrf,
    });
    expect(tooLong.status).toBe(400);
    expect((await browser.post(path, { decision: 'maybe', csrf })).status).toBe(400);
    expect((await testStore().verifications.getById(v.id))?.verification.final_verdict).toBeNull();
  });
});
