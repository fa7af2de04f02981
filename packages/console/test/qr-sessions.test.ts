import type { Role } from '@idv/store';
import { describe, expect, it } from 'vitest';
import { qrSvg } from '../src/services/qr-sessions.ts';
import { consoleApp, createTeam, seedVerification, signedIn, testStore } from './support.ts';

type App = ReturnType<typeof consoleApp>;

async function createQr(app: App, team: Awaited<ReturnType<typeof createTeam>>, role: Role = 'reviewer') {
  const browser = await signedIn(app, team, role);
  await browser.get('/console/qr');
  const res = await browser.post('/console/qr', { mode: 'test', csrf: browser.csrf() });
  expect(res.status).toBe(201);
  const html = await res.text();
  const link = /data-testid="qr-link"[^>]*>([^<]+)</.exec(html)?.[1] ?? '';
  const id = /id="qr-session" data-id="(ses_[a-z0-9]+)"/.exec(html)?.[1] ?? '';
  return { browser, html, link, id };
}

async function stateOf(browser: Awaited<ReturnType<typeof signedIn>>, id: string) {
  const res = await browser.get(`/console/qr/${id}/state`);
  expect(res.status).toBe(200);
  return (await res.json()) as { state: string; label: string; result_url: string | null };
}

describe('QR sessions in the console', () => {
  for (const role of ['owner', 'admin', 'reviewer', 'developer'] as const) {
    it(`${role}: creates a 15-minute session shown as a QR code of its capture link`, async () => {
      const team = await createTeam();
      const { html, link, id } = await createQr(consoleApp(), team, role);
      for (const testId of ['qr-code', 'qr-link', 'qr-state'])
        expect(html).toContain(`data-testid="${testId}"`);
      expect(link).toMatch(new RegExp(`^http://localhost:8787/capture/${id}#vn_ct_[A-Za-z0-9]{40}$`));
      // The code is the link itself, encoded on the server as SVG.
      expect(html).toContain(await qrSvg(link));
      expect(html).toContain('awaiting scan');
      const record = await testStore().sessions.getById(id);
      expect(record).toMatchObject({ org_id: team.org.orgId, mode: 'test', state: 'open' });
      const ttl = Date.parse(record?.token_expires_at ?? '') - Date.parse(record?.created_at ?? '');
      expect(ttl).toBe(15 * 60 * 1000);
      // The console never keeps the token: the stored session has only its hash.
      expect(JSON.stringify(record)).not.toContain(link.split('#')[1]);
    });
  }

  it('follows the states: awaiting scan, opened on the phone, verification received (with its link)', async () => {
    const app = consoleApp();
    const team = await createTeam();
    const { browser, id } = await createQr(app, team);
    expect(await stateOf(browser, id)).toMatchObject({ state: 'awaiting', label: 'awaiting scan' });

    // The phone opens the capture page (the token stays after `#`, never sent).
    expect((await app.request(`http://localhost/capture/${id}`)).status).toBe(200);
    expect(await stateOf(browser, id)).toMatchObject({ state: 'opened', label: 'opened on the phone' });

    // The upload completes the session (the same writes as POST /v1/sessions/{id}/verify).
    const store = testStore();
    const claim = await store.sessions.claimUpload(id);
    if (claim.state !== 'claimed') throw new Error(`claim ${claim.state}`);
    const verification = await seedVerification(team.org, 'test');
    await store.transact([store.sessions.completeItem(id, claim.claimId, verification.id)]);
    expect(await stateOf(browser, id)).toEqual(
      expect.objectContaining({
        state: 'received',
        label: 'verification received',
        result_url: `/console/verifications/${verification.id}`,
      }),
    );
    // In French too.
    const fr = await browser.get(`/console/qr/${id}/state?lang=fr`);
    expect(((await fr.json()) as { label: string }).label).toBe('vérification reçue');
  });

  it('reads as expired after 15 minutes, with a form to generate a new code', async () => {
    const team = await createTeam();
    const { id, html } = await createQr(consoleApp(), team);
    expect(html).toContain('data-testid="qr-regenerate"');
    const later = consoleApp({ now: () => new Date(Date.now() + 15 * 60 * 1000 + 1000) });
    const browser = await signedIn(later, team, 'developer');
    expect(await stateOf(browser, id)).toMatchObject({ state: 'expired', label: 'expired' });
  });

  it("answers 404 for another organisation's session, and refuses a suspended organisation", async () => {
    const app = consoleApp();
    const mine = await createTeam();
    const other = await createTeam();
    const { id } = await createQr(app, mine);
    const stranger = await signedIn(app, other, 'owner');
    expect((await stranger.get(`/console/qr/${id}/state`)).status).toBe(404);
    expect((await stranger.get('/console/qr/ses_nothere/state')).status).toBe(404);

    await testStore().organisations.update(other.org.orgId, { suspended: true });
    await stranger.get('/console/qr');
    const refused = await stranger.post('/console/qr', { mode: 'test', csrf: stranger.csrf() });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('suspended');
  });

  it('offers live mode only once it is active, and refuses a forged live request before', async () => {
    const app = consoleApp();
    const team = await createTeam({ liveEnabled: false });
    const browser = await signedIn(app, team, 'owner');
    const page = await (await browser.get('/console/qr')).text();
    expect(page).not.toContain('data-testid="qr-mode"');
    expect((await browser.post('/console/qr', { mode: 'live', csrf: browser.csrf() })).status).toBe(403);
    const live = await createTeam({ liveEnabled: true });
    const liveBrowser = await signedIn(app, live, 'owner');
    expect(await (await liveBrowser.get('/console/qr')).text()).toContain('data-testid="qr-mode"');
    const res = await liveBrowser.post('/console/qr', { mode: 'live', csrf: liveBrowser.csrf() });
    expect(res.status).toBe(201);
  });
});
