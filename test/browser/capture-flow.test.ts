import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { createApp } from '@idv/api';
import type { Store } from '@idv/store';
import { inProcessAnalyzer, warmUpAnalyzer } from '@idv/vision';
import { startWebhookWorker, webhookEventPublisher } from '@idv/webhooks';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentPhoto, matchingSelfie } from '../support/documents.ts';
import { bearer, createTestOrganisation } from '../support/stack.ts';
import { isolatedStore, type Receiver, startReceiver, waitFor } from '../webhooks/support.ts';
import { CHROMIUM, launchChromium } from './chromium.ts';
import { writeY4m } from './fake-camera.ts';

/**
 * The capture flow in a real browser (Debian's Chromium, headless, phone viewport, fake camera
 * playing a passport photo made by the test): once on the hosted page in French, once through
 * the SDK on the sample customer page (another origin) in English. Each ends with the
 * verification saved and its webhook received. Screenshots go to test-artifacts/browser/.
 * `npm test` installs Chromium when missing (scripts/ensure-system-deps.sh).
 */
const ROOT = resolve(import.meta.dirname, '../..');
const ARTIFACTS = join(ROOT, 'test-artifacts', 'browser');
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 };

describe.skipIf(!existsSync(CHROMIUM))('capture flow in Chromium', () => {
  let browser: Browser;
  let store: Store;
  let receiver: Receiver;
  let worker: { stop(): Promise<void> };
  let api: Server;
  let sample: Server;
  let apiUrl = '';
  let sampleUrl = '';
  let workDir = '';
  let selfie: Uint8Array;
  let org: Awaited<ReturnType<typeof createTestOrganisation>>;

  beforeAll(async () => {
    execFileSync(process.execPath, [join(ROOT, 'packages/web-sdk/scripts/build.mjs')]);
    await mkdir(ARTIFACTS, { recursive: true });
    workDir = await mkdtemp(join(tmpdir(), 'idv-browser-'));
    const camera = join(workDir, 'passport.y4m');
    await writeY4m(camera, await documentPhoto('passport'));
    selfie = await matchingSelfie();
    await warmUpAnalyzer();

    store = await isolatedStore();
    receiver = await startReceiver();
    worker = startWebhookWorker(store, { allowLocalhost: true });
    api = await listen(createServer());
    apiUrl = `http://127.0.0.1:${port(api)}`;
    const app = createApp({
      store,
      baseUrl: apiUrl,
      analyzer: inProcessAnalyzer(),
      urlSigningKey: randomBytes(32),
      events: webhookEventPublisher(store),
      webhooks: { allowLocalhost: true },
    });
    api.on('request', getRequestListener(app.fetch));
    const samplePage = await readFile(join(ROOT, 'packages/web-sdk/sample/index.html'));
    sample = await listen(
      createServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(samplePage);
      }),
    );
    sampleUrl = `http://127.0.0.1:${port(sample)}/index.html`;

    org = await createTestOrganisation();
    const hook = await app.request('/v1/webhooks', {
      method: 'POST',
      body: JSON.stringify({ url: receiver.url, description: 'browser' }),
      ...bearer(org.testKey, { 'content-type': 'application/json' }),
    });
    expect(hook.status).toBe(201);

    browser = await launchChromium({ fakeCamera: camera });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await worker?.stop();
    await receiver?.close();
    for (const server of [api, sample]) server?.closeAllConnections();
    await Promise.all([api, sample].map((s) => s && new Promise((r) => s.close(r))));
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  async function openSession(body: Record<string, unknown>) {
    const res = await fetch(`${apiUrl}/v1/sessions`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { authorization: `Bearer ${org.testKey}`, 'content-type': 'application/json' },
    });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: string; client_token: string; url: string };
  }

  /** Photo by the camera for the document, by the file fallback for the selfie, then send. */
  async function captureAll(page: Page, text: Record<'take' | 'use' | 'done', RegExp>, shots: string) {
    await page.getByRole('button', { name: text.take }).click({ timeout: 30_000 });
    const use = page.getByRole('button', { name: text.use });
    await expect.poll(() => use.isEnabled(), { timeout: 60_000 }).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, `${shots}-2-precheck.png`) });
    await use.click();
    await page.locator('input[type=file]').setInputFiles({
      name: 'selfie.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from(selfie),
    });
    await page.getByRole('button', { name: text.use }).click({ timeout: 30_000 });
    await page.getByRole('heading', { name: text.done }).waitFor({ timeout: 120_000 });
    await page.screenshot({ path: join(ARTIFACTS, `${shots}-3-done.png`) });
  }

  async function verificationOf(sessionId: string) {
    const res = await fetch(`${apiUrl}/v1/sessions/${sessionId}`, {
      headers: { authorization: `Bearer ${org.testKey}` },
    });
    const session = (await res.json()) as { status: string; verification_id: string | null };
    expect(session.status).toBe('completed');
    const delivery = await waitFor('the webhook', () =>
      receiver.requests.find((r) => JSON.parse(r.body).data.id === session.verification_id),
    );
    expect(delivery.headers['service-event']).toBe('verification.completed');
    return session.verification_id;
  }

  it('completes a session on the hosted page, in French, at a phone viewport', async () => {
    const session = await openSession({ document_type: 'passport', reference: 'browser-fr' });
    const context = await browser.newContext({ ...PHONE, locale: 'fr-FR' });
    await context.grantPermissions(['camera'], { origin: apiUrl });
    const page = await context.newPage();
    const logged: string[] = [];
    page.on('request', (r) => logged.push(r.url()));
    await page.goto(session.url);
    await page.getByRole('heading', { name: "Vérification d'identité" }).waitFor();
    // The token left the address bar, and the switch changes the language both ways.
    expect(page.url()).not.toContain(session.client_token);
    await page.getByRole('button', { name: 'Switch to English' }).click();
    await page.getByRole('heading', { name: 'Identity check' }).waitFor();
    await page.getByRole('button', { name: 'Passer en français' }).click();
    await page.screenshot({ path: join(ARTIFACTS, 'hosted-fr-1-start.png') });
    await page.getByRole('button', { name: 'Commencer' }).click();
    await captureAll(
      page,
      { take: /Prendre la photo/, use: /Utiliser cette photo/, done: /Merci/ },
      'hosted-fr',
    );
    expect(await verificationOf(session.id)).toMatch(/^vrf_/);
    // The token never travelled in an address.
    expect(logged.some((u) => u.includes(session.client_token))).toBe(false);
    // The photos went straight to the upload bucket by presigned PUTs (CORS and CSP allowed it).
    const puts = logged.filter(
      (u) => u.includes(`/uploads/${org.orgId}/test/`) && u.includes('X-Amz-Signature='),
    );
    expect(puts).toHaveLength(2);
    await context.close();
  });

  it('completes a session through the SDK on the sample customer page, in English', async () => {
    const session = await openSession({ reference: 'browser-en' });
    const context = await browser.newContext({ ...PHONE, locale: 'en-US' });
    await context.grantPermissions(['camera'], { origin: new URL(sampleUrl).origin });
    const page = await context.newPage();
    await page.goto(`${sampleUrl}?api=${encodeURIComponent(apiUrl)}#${session.id}:${session.client_token}`);
    await page.getByRole('heading', { name: 'Identity check' }).waitFor();
    await page.getByLabel('Passport').check();
    await page.screenshot({ path: join(ARTIFACTS, 'sdk-en-1-start.png') });
    await page.getByRole('button', { name: 'Start' }).click();
    await captureAll(page, { take: /Take the photo/, use: /Use this photo/, done: /Thank you/ }, 'sdk-en');
    const verificationId = await verificationOf(session.id);
    // The customer's page heard of it through onComplete.
    await expect.poll(() => page.locator('#status').textContent()).toContain(String(verificationId));
    await context.close();
  });
});

function listen(server: Server): Promise<Server> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function port(server: Server): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}
