import { LOCAL_OWNER_EMAIL, seedLocal } from '@idv/store/local';
import { describe, expect, it } from 'vitest';
import { Browser, consoleApp, createTeam, testStore } from './support.ts';

describe('console sign-in', () => {
  it('shows the form with its test ids, in English or French', async () => {
    const browser = new Browser(consoleApp());
    const res = await browser.get('/console/sign-in');
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const id of ['signin-email', 'signin-password', 'signin-submit']) {
      expect(html).toContain(`data-testid="${id}"`);
    }
    expect(html).toContain('Sign in');
    const fr = await browser.get('/console/sign-in?lang=fr');
    expect(await fr.text()).toContain('Se connecter');
    // The choice is remembered.
    expect(await (await browser.get('/console/sign-in')).text()).toContain('Mot de passe');
    const accept = await new Browser(consoleApp()).get('/console/sign-in', {
      'accept-language': 'fr-FR,fr;q=0.9',
    });
    expect(await accept.text()).toContain('Mot de passe');
  });

  it('signs in: HttpOnly, SameSite=Lax session cookie, not Secure on localhost; then signs out', async () => {
    const team = await createTeam();
    const browser = new Browser(consoleApp());
    expect((await browser.get('/console/reviews')).headers.get('location')).toBe('/console/sign-in');
    await browser.get('/console/sign-in');
    const res = await browser.post('/console/sign-in', {
      email: team.emails.reviewer,
      password: team.password,
      csrf: browser.csrf(),
    });
    expect(res.status).toBe(303);
    const cookie = res.headers.getSetCookie().find((l) => l.startsWith('idv_console='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    const page = await browser.get('/console/reviews');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(team.emails.reviewer);

    const out = await browser.post('/console/sign-out', { csrf: browser.csrf() });
    expect(out.status).toBe(303);
    expect(browser.cookies.has('idv_console')).toBe(false);
    expect((await browser.get('/console/reviews')).status).toBe(303);
  });

  it('sets the Secure flag when served over https on a real host', async () => {
    const team = await createTeam();
    const browser = new Browser(consoleApp(), 'https://console.example.com');
    await browser.get('/console/sign-in');
    const res = await browser.post('/console/sign-in', {
      email: team.emails.owner,
      password: team.password,
      csrf: browser.csrf(),
    });
    expect(res.status).toBe(303);
    expect(res.headers.getSetCookie().find((l) => l.startsWith('idv_console='))).toMatch(/Secure/);
  });

  it('refuses a wrong password, a missing CSRF token, a foreign origin and a forged cookie', async () => {
    const team = await createTeam();
    const browser = new Browser(consoleApp());
    await browser.get('/console/sign-in');
    const csrf = browser.csrf();
    const wrong = await browser.post('/console/sign-in', {
      email: team.emails.owner,
      password: 'nope',
      csrf,
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('Wrong email or password');
    const noToken = await browser.post('/console/sign-in', {
      email: team.emails.owner,
      password: team.password,
    });
    expect(noToken.status).toBe(403);
    expect(browser.cookies.has('idv_console')).toBe(false);

    const signedIn = new Browser(consoleApp());
    await signedIn.signIn(team.emails.owner, team.password);
    const forged = new Browser(consoleApp());
    forged.cookies.set('idv_console', `${signedIn.cookies.get('idv_console')}x`);
    expect((await forged.get('/console/reviews')).status).toBe(303);
    // Another app instance (another key) does not accept this one's cookie either.
    const elsewhere = new Browser(consoleApp());
    elsewhere.cookies.set('idv_console', signedIn.cookies.get('idv_console') ?? '');
    expect((await elsewhere.get('/console/reviews')).status).toBe(303);
  });

  it('locks an email out after repeated failures, even with the right password then', async () => {
    const team = await createTeam();
    const app = consoleApp({}, { maxFailures: 3, windowSeconds: 3600 });
    const browser = new Browser(app);
    await browser.get('/console/sign-in');
    for (let i = 0; i < 3; i++) {
      const res = await browser.post('/console/sign-in', {
        email: team.emails.admin,
        password: `wrong-${i}`,
        csrf: browser.csrf(),
      });
      expect(res.status).toBe(401);
    }
    const locked = await browser.post('/console/sign-in', {
      email: team.emails.admin,
      password: team.password,
      csrf: browser.csrf(),
    });
    expect(locked.status).toBe(429);
    expect(browser.cookies.has('idv_console')).toBe(false);
    // Another email of the same organisation is not locked.
    const other = await new Browser(app).signIn(team.emails.owner, team.password);
    expect(other.status).toBe(303);
  });

  it('accepts the console login that `npm start` prints (seedLocal)', async () => {
    const creds = await seedLocal(testStore(), 'http://localhost:8787', null).catch(async () =>
      // The fixed owner email may already exist on this shared stack: seed another one.
      seedLocal(testStore(), 'http://localhost:8787', {
        base_url: '',
        test_key: 'vn_test_x',
        live_key: 'vn_live_x',
        console: { email: LOCAL_OWNER_EMAIL, password: 'x' },
        org_id: '',
        app_id: '',
      }),
    );
    const app = consoleApp();
    const browser = new Browser(app);
    const res = await browser.signIn(creds.console.email, creds.console.password);
    expect(res.status).toBe(303);
    expect((await browser.get('/console/reviews')).status).toBe(200);
    // The platform operator printed beside it signs in on its own page.
    const operator = new Browser(app);
    await operator.get('/console/operator/sign-in');
    const signedIn = await operator.post('/console/operator/sign-in', {
      email: creds.operator?.email ?? '',
      password: creds.operator?.password ?? '',
      csrf: operator.csrf(),
    });
    expect(signedIn.headers.get('location')).toBe('/console/operator');
    expect((await operator.get('/console/operator')).status).toBe(200);
  });
});
