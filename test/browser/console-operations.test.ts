import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { createApp } from '@idv/api';
import { mountConsole } from '@idv/console';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedVerification } from '../../packages/api/test/support.ts';
import { createTestOrganisation, testStore } from '../support/stack.ts';
import { CHROMIUM, launchChromium } from './chromium.ts';

/**
 * The operations pages in Debian's Chromium at phone width: an owner opens the verifications
 * list, a live verification's detail (its photo loaded through an audited short-lived URL),
 * then the usage page. Screenshots go to test-artifacts/browser/.
 */
const ARTIFACTS = join(resolve(import.meta.dirname, '../..'), 'test-artifacts', 'browser');
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 };
// A 1×1 PNG: the detail page shows it as the stored front image.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

describe.skipIf(!existsSync(CHROMIUM))('console operations pages in Chromium', () => {
  let browser: Browser;
  let server: Server;
  let baseUrl = '';
  let org: Awaited<ReturnType<typeof createTestOrganisation>>;
  const password = randomBytes(12).toString('base64url');
  let email = '';

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    server = await new Promise<Server>((r) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => r(s));
    });
    const address = server.address();
    baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const deps = { store: testStore(), baseUrl, urlSigningKey: randomBytes(32) };
    const app = createApp(deps);
    mountConsole(app, deps, { sessionKey: randomBytes(32) });
    server.on('request', getRequestListener(app.fetch));
    org = await createTestOrganisation();
    email = `owner+${org.orgId}@example.com`.toLowerCase();
    await testStore().users.create({ orgId: org.orgId, email, role: 'owner', password });
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  it('walks list → detail (photo through an audited URL) → usage, in French', async () => {
    const older = await seedVerification(org, 'live');
    const v = await seedVerification(org, 'live', { front: new Uint8Array(PNG) });
    const context = await browser.newContext({ ...PHONE, locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/console`);
    await page.getByTestId('signin-email').fill(email);
    await page.getByTestId('signin-password').fill(password);
    await page.getByTestId('signin-submit').click();
    await page.waitForURL(/\/console\/reviews/);

    await page.getByRole('link', { name: 'Vérifications' }).click();
    const row = page.locator(`[data-testid="verification-row"][data-id="${v.id}"]`);
    await row.waitFor();
    expect(await page.locator('[data-testid="verification-row"]').count()).toBe(2);
    expect(await page.locator('[data-testid="verification-row"]').first().getAttribute('data-id')).toBe(v.id);
    expect(await page.locator(`[data-id="${older.id}"]`).count()).toBe(1);
    // Usable at phone width: the page itself does not scroll sideways (the table scrolls in its box).
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(ARTIFACTS, 'operations-1-list.png'), fullPage: true });

    await row.getByTestId('verification-link').click();
    await page.waitForURL(new RegExp(`/console/verifications/${v.id}$`));
    await page.getByText('Contrôles').waitFor();
    const image = page.getByTestId('verification-image');
    await image.waitFor();
    // Photos load lazily, so only a photo actually scrolled to is fetched (and audited as viewed).
    await image.scrollIntoViewIfNeeded();
    await page.waitForFunction(
      () =>
        (document.querySelector('[data-testid="verification-image"]') as HTMLImageElement | null)
          ?.naturalWidth === 1,
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(ARTIFACTS, 'operations-2-detail.png'), fullPage: true });
    const audit = await testStore().audit.list(org.orgId, 20);
    const actions = audit.ok ? audit.page.data.map((e) => e.action) : [];
    expect(actions).toEqual(expect.arrayContaining(['image_url_issued', 'image_viewed']));

    await page.getByRole('link', { name: 'Consommation' }).click();
    await page.getByTestId('usage-summary').waitFor();
    expect(await page.getByTestId('usage-free-left').textContent()).toMatch(/^\d+$/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(ARTIFACTS, 'operations-3-usage.png'), fullPage: true });
    await context.close();
  });
});
