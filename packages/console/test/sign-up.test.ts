import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Browser, consoleApp, testStore } from './support.ts';

const unique = () => randomBytes(6).toString('hex');
const PASSWORD = 'correct horse battery';

async function signUp(browser: Browser, fields: Record<string, string>) {
  await browser.get('/console/sign-up');
  return browser.post('/console/sign-up', { ...fields, csrf: browser.csrf() });
}

describe('console sign-up', () => {
  it('shows the form in English or French, linked from the sign-in page', async () => {
    const browser = new Browser(consoleApp());
    const signIn = await (await browser.get('/console/sign-in')).text();
    expect(signIn).toContain('href="/console/sign-up"');
    const html = await (await browser.get('/console/sign-up')).text();
    for (const id of ['signup-organisation', 'signup-email', 'signup-password', 'signup-submit']) {
      expect(html).toContain(`data-testid="${id}"`);
    }
    expect(html).toContain('Create an organisation');
    expect(await (await browser.get('/console/sign-up?lang=fr')).text()).toContain('Créer une organisation');
  });

  it('creates an organisation in test mode with its owner, signed in at once', async () => {
    const email = `founder+${unique()}@example.com`;
    const name = `Sahel Microfinance ${unique()}`;
    const browser = new Browser(consoleApp());
    const res = await signUp(browser, { organisation: name, email: email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/console/reviews');
    expect(browser.cookies.has('idv_console')).toBe(true);
    const home = await browser.get('/console/reviews');
    expect(home.status).toBe(200);
    expect(await home.text()).toContain(email);

    const user = await testStore().users.getByEmail(email);
    expect(user?.role).toBe('owner');
    const org = await testStore().organisations.get(user?.org_id ?? '');
    expect(org).toMatchObject({ name, live_enabled: false, suspended: false });
    expect(await testStore().organisations.listApplications(org?.id ?? '')).toHaveLength(1);
    // The password is kept as scrypt, never as typed, and works for a later sign-in.
    expect(await testStore().users.authenticate(email, PASSWORD)).not.toBeNull();
    const journal = await testStore().audit.list(org?.id ?? '', 10);
    expect(journal.ok && journal.page.data.map((e) => e.action)).toEqual(['organisation.signed_up']);

    // Test mode only: a test key can be made, a live key waits for the operator.
    await browser.get('/console/keys');
    expect((await browser.post('/console/keys', { mode: 'test', csrf: browser.csrf() })).status).toBe(201);
    const live = await browser.post('/console/keys', { mode: 'live', csrf: browser.csrf() });
    expect(live.status).toBe(403);
    expect(await live.text()).toContain('Live mode is not active');
  });

  it('shows each validation error beside its field, keeps what was typed, never the password', async () => {
    const browser = new Browser(consoleApp());
    const res = await signUp(browser, { organisation: '  ', email: 'not-an-email', password: 'short1' });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('data-testid="signup-error-organisation"');
    expect(html).toContain('Enter the name of your organisation.');
    expect(html).toContain('data-testid="signup-error-email"');
    expect(html).toContain('Enter a valid email address.');
    expect(html).toContain('data-testid="signup-error-password"');
    expect(html).toContain('at least 12 characters');
    expect(html).toContain('value="not-an-email"');
    expect(html).toContain('aria-invalid="true"');
    expect(html).not.toContain('short1');
    expect(browser.cookies.has('idv_console')).toBe(false);

    const fr = new Browser(consoleApp());
    await fr.get('/console/sign-up?lang=fr');
    const frRes = await fr.post('/console/sign-up', {
      organisation: 'x'.repeat(101),
      email: `a+${unique()}@example.com`,
      password: PASSWORD,
      csrf: fr.csrf(),
    });
    expect(frRes.status).toBe(400);
    expect(await frRes.text()).toContain('Le nom est trop long');
  });

  it('refuses an email already taken (any case), leaving no organisation behind', async () => {
    const email = `taken+${unique()}@example.com`;
    expect(
      (await signUp(new Browser(consoleApp()), { organisation: 'First', email, password: PASSWORD })).status,
    ).toBe(303);
    const second = `Second ${unique()}`;
    const browser = new Browser(consoleApp());
    const res = await signUp(browser, {
      organisation: second,
      email: email.toUpperCase(),
      password: PASSWORD,
    });
    expect(res.status).toBe(409);
    expect(await res.text()).toContain('An account already uses this email');
    expect(browser.cookies.has('idv_console')).toBe(false);
    const listed = await testStore().organisations.list(100);
    expect(listed.ok && listed.page.data.some((org) => org.name === second)).toBe(false);
  });

  it('lets exactly one of two concurrent sign-ups with one email through', async () => {
    const email = `race+${unique()}@example.com`;
    const app = consoleApp();
    const browsers = [new Browser(app), new Browser(app)];
    for (const b of browsers) await b.get('/console/sign-up');
    const results = await Promise.all(
      browsers.map((b, i) =>
        b.post('/console/sign-up', { organisation: `Race ${i}`, email, password: PASSWORD, csrf: b.csrf() }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([303, 409]);
  });

  it('refuses a form without its CSRF token', async () => {
    const browser = new Browser(consoleApp());
    await browser.get('/console/sign-up');
    const email = `csrf+${unique()}@example.com`;
    const res = await browser.post('/console/sign-up', { organisation: 'X', email, password: PASSWORD });
    expect(res.status).toBe(403);
    expect(await testStore().users.getByEmail(email)).toBeNull();
  });
});
