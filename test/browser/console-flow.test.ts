import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { createApp } from '@idv/api';
import { mountConsole } from '@idv/console';
import type { Store } from '@idv/store';
import { startWebhookWorker, webhookEventPublisher } from '@idv/webhooks';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedVerification } from '../../packages/api/test/support.ts';
import { createTestOrganisation, testStore } from '../support/stack.ts';
import { isolatedStore, type Receiver, startReceiver, waitFor } from '../webhooks/support.ts';
import { CHROMIUM, launchChromium } from './chromium.ts';

/**
 * The operator console in a real browser (Debian's Chromium, headless, phone width): a reviewer
 * signs in, decides a verification in review (French), and the second webhook arrives with
 * `final_verdict`; a developer creates a key, uses it, revokes it (the next call gets 401).
 * Screenshots go to test-artifacts/browser/.
 */
const ARTIFACTS = join(resolve(import.meta.dirname, '../..'), 'test-artifacts', 'browser');
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 };

describe.skipIf(!existsSync(CHROMIUM))('operator console in Chromium', () => {
  let browser: Browser;
  let store: Store;
  let receiver: Receiver;
  let worker: { stop(): Promise<void> };
  let server: Server;
  let baseUrl = '';
  let org: Awaited<ReturnType<typeof createTestOrganisation>>;
  const password = randomBytes(12).toString('base64url');
  const emails = { reviewer: '', developer: '' };

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    store = await isolatedStore();
    receiver = await startReceiver();
    worker = startWebhookWorker(store, { allowLocalhost: true });
    server = await new Promise<Server>((r) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => r(s));
    });
    const address = server.address();
    baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const deps = {
      store,
      baseUrl,
      urlSigningKey: randomBytes(32),
      events: webhookEventPublisher(store),
      webhooks: { allowLocalhost: true },
    };
    const app = createApp(deps);
    mountConsole(app, deps, { sessionKey: randomBytes(32) });
    server.on('request', getRequestListener(app.fetch));

    org = await createTestOrganisation();
    const hook = await app.request('/v1/webhooks', {
      method: 'POST',
      body: JSON.stringify({ url: receiver.url, description: 'console' }),
      headers: { authorization: `Bearer ${org.testKey}`, 'content-type': 'application/json' },
    });
    expect(hook.status).toBe(201);
    for (const role of ['reviewer', 'developer'] as const) {
      emails[role] = `${role}+${org.orgId}@example.com`.toLowerCase();
      await testStore().users.create({ orgId: org.orgId, email: emails[role], role, password });
    }
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await worker?.stop();
    await receiver?.close();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  async function signIn(email: string, locale: string) {
    const context = await browser.newContext({ ...PHONE, locale });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/console`);
    await page.getByTestId('signin-email').fill(email);
    await page.getByTestId('signin-password').fill(password);
    await page.getByTestId('signin-submit').click();
    return { context, page };
  }

  it('a reviewer decides a review in French; the second webhook carries final_verdict', async () => {
    const v = await seedVerification(org, 'test');
    const { context, page } = await signIn(emails.reviewer, 'fr-FR');
    const item = page.locator(`[data-testid="review-item"][data-id="${v.id}"]`);
    await item.waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'console-fr-1-queue.png'), fullPage: true });
    await item.getByTestId('review-note').fill('visage vérifié à la main');
    await item.getByTestId('review-approve').click();
    await page.getByText('Décision enregistrée.').waitFor();
    expect(await page.locator(`[data-testid="review-item"][data-id="${v.id}"]`).count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'console-fr-2-decided.png'), fullPage: true });

    const delivery = await waitFor('the review webhook', () =>
      receiver.requests.find((r) => {
        const body = JSON.parse(r.body);
        return body.data.id === v.id && body.data.final_verdict !== null;
      }),
    );
    expect(JSON.parse(delivery.body).data).toMatchObject({ verdict: 'review', final_verdict: 'verified' });
    await context.close();
  });

  it('a developer creates a key, uses it, revokes it; the next call gets 401', async () => {
    const { context, page } = await signIn(emails.developer, 'en-GB');
    await page.waitForURL(/\/console\/reviews/);
    await page.goto(`${baseUrl}/console/keys`);
    await page.getByTestId('key-mode').selectOption('test');
    await page.getByTestId('key-create').click();
    const secret = (await page.getByTestId('key-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^vn_test_/);
    await page.screenshot({ path: join(ARTIFACTS, 'console-en-3-key.png'), fullPage: true });
    const call = () => fetch(`${baseUrl}/v1/logs`, { headers: { authorization: `Bearer ${secret}` } });
    expect((await call()).status).toBe(200);

    const prefix = secret.slice(0, 12);
    const row = page.getByTestId('key-row').filter({ hasText: prefix });
    await row.getByTestId('key-revoke').click();
    await page.getByText('Key revoked.').waitFor();
    expect((await call()).status).toBe(401);
    await context.close();
  });
});
