import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { bearer, createTestOrganisation, testApp } from '../../../../../test/support/stack.ts';
import { onePart, openSession, sessionFixture } from './session-support.ts';

const t0 = new Date('2030-03-01T12:00:00.000Z');
const fixedClock = () => t0;

/** A small JPEG made here (tests never read the shared fixtures). */
async function plainJpeg(): Promise<Uint8Array> {
  const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#808080' } })
    .jpeg()
    .toBuffer();
  return new Uint8Array(png);
}

describe('POST /v1/sessions and GET /v1/sessions/{id}', () => {
  it('opens a session with a client token and a capture url carrying it after #', async () => {
    const org = await createTestOrganisation();
    const app = testApp({ now: fixedClock });
    const res = await app.request('/v1/sessions', {
      method: 'POST',
      body: JSON.stringify({ reference: 'file-7', document_type: 'passport' }),
      ...bearer(org.testKey, { 'content-type': 'application/json' }),
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({
      id: expect.stringMatching(/^ses_/),
      client_token: expect.stringMatching(/^vn_ct_[A-Za-z0-9]{40}$/),
      status: 'open',
      mode: 'test',
      reference: 'file-7',
      document_type: 'passport',
      expires_at: '2030-03-01T12:15:00.000Z',
      verification_id: null,
      verification: null,
    });
    expect(body.url).toBe(`http://localhost:8787/capture/${body.id}#${body.client_token}`);

    const read = await app.request(`/v1/sessions/${body.id}`, bearer(org.testKey));
    expect(read.status).toBe(200);
    const session = await read.json();
    expect(session).toMatchObject({
      id: body.id,
      status: 'open',
      reference: 'file-7',
      document_type: 'passport',
    });
    // The token is shown once, at creation.
    expect(JSON.stringify(session)).not.toContain(body.client_token);
    // The other mode's key and another organisation do not see it.
    expect((await app.request(`/v1/sessions/${body.id}`, bearer(org.liveKey))).status).toBe(404);
    const other = await createTestOrganisation();
    expect((await app.request(`/v1/sessions/${body.id}`, bearer(other.testKey))).status).toBe(404);
  });

  it('takes ttl_seconds from 60 to 3600 and refuses anything else with 400', async () => {
    const org = await createTestOrganisation();
    const app = testApp({ now: fixedClock });
    const post = (body: unknown) =>
      app.request('/v1/sessions', {
        method: 'POST',
        body: JSON.stringify(body),
        ...bearer(org.testKey, { 'content-type': 'application/json' }),
      });
    expect((await (await post({ ttl_seconds: 60 })).json()).expires_at).toBe('2030-03-01T12:01:00.000Z');
    expect((await post({ ttl_seconds: 3600 })).status).toBe(201);
    for (const bad of [
      { ttl_seconds: 59 },
      { ttl_seconds: 3601 },
      { ttl_seconds: 90.5 },
      { document_type: 'cni_old' },
      { extra: 1 },
    ]) {
      const res = await post(bad);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: { code: 'invalid_request', message: expect.any(String) } });
    }
  });

  it('reads as expired once the token lifetime is over', async () => {
    const org = await createTestOrganisation();
    let now = t0;
    const app = testApp({ now: () => now });
    const session = await openSession(app, org.testKey, { ttl_seconds: 60 });
    now = new Date(t0.getTime() + 61_000);
    expect((await (await app.request(`/v1/sessions/${session.id}`, bearer(org.testKey))).json()).status).toBe(
      'expired',
    );
    const upload = await app.request(`/v1/sessions/${session.id}/precheck`, {
      method: 'POST',
      body: onePart(await plainJpeg()),
      ...bearer(session.client_token),
    });
    expect(upload.status).toBe(410);
    expect((await upload.json()).error.code).toBe('session_expired');
  });
});

describe('token kinds', () => {
  it('refuses a client token on secret-key routes and a secret key on client-token routes', async () => {
    const { org, app, session } = await sessionFixture();
    for (const [path, method] of [
      ['/v1/sessions', 'POST'],
      [`/v1/sessions/${session.id}`, 'GET'],
      ['/v1/verifications', 'GET'],
    ] as const) {
      const res = await app.request(path, { method, ...bearer(session.client_token) });
      expect(res.status).toBe(401);
      expect((await res.json()).error.code).toBe('unauthorized');
    }
    for (const route of ['verify', 'precheck', 'mrz']) {
      const res = await app.request(`/v1/sessions/${session.id}/${route}`, {
        method: 'POST',
        body: onePart(await plainJpeg()),
        ...bearer(org.testKey),
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({
        error: { code: 'unauthorized', message: expect.stringContaining('client token') },
      });
    }
  });

  it("refuses another session's token, a forged token and no token", async () => {
    const { org, app, session } = await sessionFixture();
    const other = await openSession(app, org.testKey);
    const image = await plainJpeg();
    for (const headers of [
      bearer(other.client_token).headers,
      bearer(`vn_ct_${'A'.repeat(40)}`).headers,
      {} as Record<string, string>,
    ]) {
      const res = await app.request(`/v1/sessions/${session.id}/mrz`, {
        method: 'POST',
        body: onePart(image),
        headers,
      });
      expect(res.status).toBe(401);
    }
  });
});

describe('browser access', () => {
  it('answers the CORS preflight of the browser routes for any origin', async () => {
    const { app, session } = await sessionFixture();
    for (const route of ['verify', 'precheck', 'mrz']) {
      const res = await app.request(`/v1/sessions/${session.id}/${route}`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://shop.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toContain('POST');
      expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    }
    // Errors carry the header too, so the page can read them.
    const refused = await app.request(`/v1/sessions/${session.id}/verify`, {
      method: 'POST',
      headers: { origin: 'https://shop.example' },
    });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    // The secret-key routes stay closed to browsers.
    const closed = await app.request('/v1/sessions', {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
    });
    expect(closed.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('serves the capture page without the token, and the SDK bundle', async () => {
    execFileSync(process.execPath, [resolve(import.meta.dirname, '../../../../web-sdk/scripts/build.mjs')]);
    const { app, session } = await sessionFixture({}, { document_type: 'cni' });
    const page = await app.request(`/capture/${session.id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(session.id);
    expect(html).toContain('"documentType":"cni"');
    expect(html).not.toContain(session.client_token);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self' 'nonce-[^']+'/);
    expect((await app.request('/capture/ses_doesnotexist')).status).toBe(404);

    const sdk = await app.request('/sdk/v1.js');
    expect(sdk.status).toBe(200);
    expect(sdk.headers.get('content-type')).toContain('javascript');
    expect(sdk.headers.get('access-control-allow-origin')).toBe('*');
    expect(await sdk.text()).toContain('mount');
    const types = await app.request('/sdk/v1.d.ts');
    expect(await types.text()).toContain('export declare function mount');
    expect((await app.request('/sdk/other.js')).status).toBe(404);
  });
});

describe('limits and the request log', () => {
  it('limits pre-checks per session with the rate-limit headers and 429 retry-after', async () => {
    const { org, app, session } = await sessionFixture({
      now: fixedClock,
      limits: { sessionHelpersPerMinute: 2 },
    });
    const image = await plainJpeg();
    const call = (s: { id: string; client_token: string }, route = 'precheck') =>
      app.request(`/v1/sessions/${s.id}/${route}`, {
        method: 'POST',
        body: onePart(image),
        ...bearer(s.client_token),
      });
    const first = await call(session);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('2');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('1');
    expect((await call(session)).status).toBe(200);
    const limited = await call(session);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect((await limited.json()).error.code).toBe('rate_limited');
    // The chip key has its own allowance, and so has every other session.
    expect((await call(session, 'mrz')).status).toBe(200);
    expect((await call(await openSession(app, org.testKey))).status).toBe(200);
  });

  it('limits uploads to the per-session allowance', async () => {
    const { app, session } = await sessionFixture({
      now: fixedClock,
      limits: { sessionUploadsPerMinute: 1 },
    });
    const upload = () =>
      app.request(`/v1/sessions/${session.id}/verify`, {
        method: 'POST',
        body: 'not multipart',
        ...bearer(session.client_token, { 'content-type': 'text/plain' }),
      });
    expect((await upload()).status).toBe(400);
    expect((await upload()).status).toBe(429);
  });

  it('records client-token calls in the request log under the session, metadata only', async () => {
    const { org, app, session } = await sessionFixture();
    await app.request(`/v1/sessions/${session.id}/precheck`, {
      method: 'POST',
      body: onePart(await plainJpeg()),
      ...bearer(session.client_token),
    });
    const logs = await (await app.request('/v1/logs', bearer(org.testKey))).json();
    const entry = logs.data.find((e: { route: string }) => e.route === '/v1/sessions/:id/precheck');
    expect(entry).toMatchObject({
      method: 'POST',
      status: 200,
      key: session.id,
      mode: 'test',
      resource_id: session.id,
    });
    expect(JSON.stringify(logs)).not.toContain(session.client_token);
    expect(logs.data.some((e: { route: string }) => e.route === '/v1/sessions')).toBe(true);
  });
});

describe('pre-check and chip key without a readable photo', () => {
  it('answers the pre-check with checked:false and the chip key with key:null', async () => {
    const { app, session } = await sessionFixture();
    const precheck = await app.request(
      `/v1/sessions/${session.id}/precheck?document_type=passport&side=front`,
      {
        method: 'POST',
        body: onePart(new TextEncoder().encode('not an image')),
        ...bearer(session.client_token),
      },
    );
    expect(precheck.status).toBe(200);
    expect(await precheck.json()).toEqual({ issue: null, checked: false, latency_ms: expect.any(Number) });
    const badQuery = await app.request(`/v1/sessions/${session.id}/precheck?side=top`, {
      method: 'POST',
      body: onePart(await plainJpeg()),
      ...bearer(session.client_token),
    });
    expect(await badQuery.json()).toMatchObject({ issue: null, checked: false });
    const mrz = await app.request(`/v1/sessions/${session.id}/mrz`, {
      method: 'POST',
      body: onePart(await plainJpeg()),
      ...bearer(session.client_token),
    });
    expect(mrz.status).toBe(200);
    expect(await mrz.json()).toEqual({ key: null });
    const missing = await app.request(`/v1/sessions/${session.id}/mrz`, {
      method: 'POST',
      body: onePart(await plainJpeg(), 'photo'),
      ...bearer(session.client_token),
    });
    expect(missing.status).toBe(400);
  });

  it('documents the five session operations in /openapi.json', async () => {
    const doc = await (await testApp().request('/openapi.json')).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/v1/sessions',
        '/v1/sessions/{id}',
        '/v1/sessions/{id}/verify',
        '/v1/sessions/{id}/precheck',
        '/v1/sessions/{id}/mrz',
      ]),
    );
    expect(doc.paths['/v1/sessions/{id}/verify'].post.security).toEqual([{ ClientToken: [] }]);
    expect(doc.components.securitySchemes.ClientToken).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});
