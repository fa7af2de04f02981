import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { createApp } from '@idv/api';
import { mountConsole } from '@idv/console';
import { inProcessAnalyzer, warmUpAnalyzer } from '@idv/vision';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentPhoto, matchingSelfie } from '../support/documents.ts';
import { createTestOrganisation, testStore } from '../support/stack.ts';
import { CHROMIUM, launchChromium } from './chromium.ts';
import { writeY4m } from './fake-camera.ts';

/**
 * The console's sign-up and QR session in a real browser (Debian's Chromium, headless): a new
 * organisation signs up (an error shown in the form first), then a reviewer creates a QR
 * session; its link is opened in a second page (a phone, with a fake camera playing a passport
 * made by the test) and the capture completed; the console page follows the states without a
 * reload up to "verification received". Screenshots go to test-artifacts/browser/.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const ARTIFACTS = join(ROOT, 'test-artifacts', 'browser');
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 };
const DESKTOP = { viewport: { width: 1100, height: 900 } };

describe.skipIf(!existsSync(CHROMIUM))('console sign-up and QR session in Chromium', () => {
  let browser: Browser;
  let server: Server;
  let baseUrl = '';
  let workDir = '';
  let selfie: Uint8Array;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(ROOT, 'packages/web-sdk/scripts/build.mjs')]);
    await mkdir(ARTIFACTS, { recursive: true });
    workDir = await mkdtemp(join(tmpdir(), 'idv-console-qr-'));
    const camera = join(workDir, 'passport.y4m');
    await writeY4m(camera, await documentPhoto('passport'));
    selfie = await matchingSelfie();
    await warmUpAnalyzer();

    server = await new Promise<Server>((r) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => r(s));
    });
    const address = server.address();
    baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const deps = {
      store: testStore(),
      baseUrl,
      analyzer: inProcessAnalyzer(),
      // The machine running the suite may be busy: the analysis gets time (speed is benchmarked elsewhere).
      analysisTimeoutMs: 180_000,
      urlSigningKey: randomBytes(32),
    };
    const app = createApp(deps);
    mountConsole(app, deps, { sessionKey: randomBytes(32) });
    server.on('request', getRequestListener(app.fetch));
    browser = await launchChromium({ fakeCamera: camera });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('signs up a new organisation at phone width, in French, after fixing a refused field', async () => {
    const context = await browser.newContext({ ...PHONE, locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/console/sign-in`);
    await page.getByTestId('signup-link').click();
    const email = `fondatrice+${randomBytes(4).toString('hex')}@example.com`;
    await page.getByTestId('signup-organisation').fill('Coopérative du Sahel');
    await page.getByTestId('signup-email').fill(email);
    await page.getByTestId('signup-password').fill('court');
    await page.getByTestId('signup-submit').click();
    await page.getByTestId('signup-error-password').waitFor();
    expect(await page.getByTestId('signup-error-password').textContent()).toContain('au moins 12 caractères');
    // What was typed is kept, except the password.
    expect(await page.getByTestId('signup-email').inputValue()).toBe(email);
    await page.screenshot({ path: join(ARTIFACTS, 'console-fr-signup-1-error.png'), fullPage: true });

    await page.getByTestId('signup-password').fill('un mot de passe assez long');
    await page.getByTestId('signup-submit').click();
    await page.waitForURL(/\/console\/reviews$/);
    await page.getByText(email).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'console-fr-signup-2-signed-in.png'), fullPage: true });
    const user = await testStore().users.getByEmail(email);
    expect(user?.role).toBe('owner');
    expect((await testStore().organisations.get(user?.org_id ?? ''))?.live_enabled).toBe(false);
    await context.close();
  });

  it('runs a QR session: opened in a second page, captured, shown as received without a reload', async () => {
    const org = await createTestOrganisation();
    const email = `reviewer+${org.orgId}@example.com`;
    const password = randomBytes(12).toString('base64url');
    await testStore().users.create({ orgId: org.orgId, email, role: 'reviewer', password });

    const desk = await browser.newContext({ ...DESKTOP, locale: 'en-GB' });
    const desktop = await desk.newPage();
    await desktop.goto(`${baseUrl}/console/sign-in`);
    await desktop.getByTestId('signin-email').fill(email);
    await desktop.getByTestId('signin-password').fill(password);
    await desktop.getByTestId('signin-submit').click();
    await desktop.waitForURL(/\/console\/reviews/);
    await desktop.getByRole('link', { name: 'QR session' }).click();
    await desktop.getByTestId('qr-create').click();
    const code = desktop.getByTestId('qr-code');
    await code.locator('svg').waitFor();
    const state = desktop.getByTestId('qr-state');
    expect(await state.textContent()).toBe('awaiting scan');
    const link = (await desktop.getByTestId('qr-link').getAttribute('href')) ?? '';
    expect(link).toMatch(new RegExp(`^${baseUrl}/capture/ses_[a-z0-9]+#vn_ct_`));
    await desktop.screenshot({ path: join(ARTIFACTS, 'console-en-qr-1-awaiting.png'), fullPage: true });
    // Nothing reloads the console page from here on: the states arrive by polling.
    let reloads = 0;
    desktop.on('framenavigated', (frame) => {
      if (frame === desktop.mainFrame()) reloads++;
    });

    const phoneContext = await browser.newContext({ ...PHONE, locale: 'en-US' });
    await phoneContext.grantPermissions(['camera'], { origin: baseUrl });
    const phone = await phoneContext.newPage();
    await phone.goto(link);
    await phone.getByRole('heading', { name: 'Identity check' }).waitFor();
    await expect.poll(() => state.textContent(), { timeout: 15_000 }).toBe('opened on the phone');
    await desktop.screenshot({ path: join(ARTIFACTS, 'console-en-qr-2-opened.png'), fullPage: true });

    await phone.getByLabel('Passport').check();
    await phone.getByRole('button', { name: 'Start' }).click();
    await phone.getByRole('button', { name: /Take the photo/ }).click({ timeout: 30_000 });
    const use = phone.getByRole('button', { name: /Use this photo/ });
    await expect.poll(() => use.isEnabled(), { timeout: 60_000 }).toBe(true);
    await use.click();
    await phone.locator('input[type=file]').setInputFiles({
      name: 'selfie.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from(selfie),
    });
    await phone.getByRole('button', { name: /Use this photo/ }).click({ timeout: 30_000 });
    await phone.getByRole('heading', { name: /Thank you/ }).waitFor({ timeout: 120_000 });
    await phone.screenshot({ path: join(ARTIFACTS, 'console-en-qr-phone-done.png') });

    await expect.poll(() => state.textContent(), { timeout: 15_000 }).toBe('verification received');
    const result = desktop.getByTestId('qr-result');
    await result.waitFor();
    const href = (await result.getAttribute('href')) ?? '';
    expect(href).toMatch(/^\/console\/verifications\/vrf_[a-z0-9]+$/);
    // The link names the verification the phone's upload created for this organisation.
    const verification = await testStore().verifications.getById(href.split('/').pop() ?? '');
    expect(verification?.org_id).toBe(org.orgId);
    expect(await code.isVisible()).toBe(false);
    expect(reloads).toBe(0);
    await desktop.screenshot({ path: join(ARTIFACTS, 'console-en-qr-3-received.png'), fullPage: true });
    await phoneContext.close();
    await desk.close();
  }, 300_000);
});
