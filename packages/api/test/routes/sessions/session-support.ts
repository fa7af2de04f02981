import { randomBytes } from 'node:crypto';
import type { AppDeps } from '@idv/api';
import { inProcessAnalyzer, warmUpAnalyzer } from '@idv/vision';
import sharp from 'sharp';
import { expect } from 'vitest';
import { bearer, createTestOrganisation, testApp } from '../../support.ts';

export type TestApp = ReturnType<typeof testApp>;
export interface OpenedSession {
  id: string;
  client_token: string;
  url: string;
  status: string;
  expires_at: string;
}

/** Opens a session through the API with the given secret key; returns what the customer gets. */
export async function openSession(
  app: TestApp,
  key: string,
  body: Record<string, unknown> = {},
): Promise<OpenedSession> {
  const res = await app.request('/v1/sessions', postJson(key, body));
  if (res.status !== 201) throw new Error(`session not opened: ${res.status} ${await res.text()}`);
  return res.json();
}

export function postJson(key: string, body: unknown) {
  return {
    method: 'POST',
    body: JSON.stringify(body),
    ...bearer(key, { 'content-type': 'application/json' }),
  };
}

/** An organisation, an app (test clock and limits as given) and one open session of its test key. */
export async function sessionFixture(overrides: Partial<AppDeps> = {}, body: Record<string, unknown> = {}) {
  const org = await createTestOrganisation();
  const app = testApp(overrides);
  const session = await openSession(app, org.testKey, body);
  return { org, app, session };
}

/** The app with the real in-process analyzer (ONNX models), as `npm start` runs it. */
export async function analyzerApp(overrides: Partial<AppDeps> = {}): Promise<TestApp> {
  await warmUpAnalyzer();
  return testApp({ analyzer: inProcessAnalyzer(), urlSigningKey: randomBytes(32), ...overrides });
}

/** A client-token call of one session route with a multipart body. */
export function clientCall(
  app: TestApp,
  session: { id: string; client_token: string },
  route: 'verify' | 'precheck' | 'mrz',
  body: FormData | string,
  query = '',
) {
  return app.request(`/v1/sessions/${session.id}/${route}${query}`, {
    method: 'POST',
    body,
    ...bearer(session.client_token),
  });
}

/** A multipart body with one `image` part (or another name). */
export function onePart(bytes: Uint8Array, name = 'image'): FormData {
  const form = new FormData();
  form.append(name, new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), `${name}.jpg`);
  return form;
}

/** A small grey JPEG made here: a valid image with nothing to read. */
export async function plainJpeg(): Promise<Uint8Array> {
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#808080' } })
    .jpeg()
    .toBuffer();
  return new Uint8Array(jpeg);
}

/**
 * Sends a client-token call with each credential it must refuse — none, a secret key,
 * another session's token, a forged token — and expects 401 `unauthorized` every time.
 */
export async function expectWrongClientTokensRefused(
  app: TestApp,
  call: (headers: Record<string, string>) => Response | Promise<Response>,
): Promise<void> {
  const org = await createTestOrganisation();
  const other = await openSession(app, org.testKey);
  const wrong: [string, Record<string, string>][] = [
    ['no credential', {}],
    ['a secret key', bearer(org.testKey).headers],
    ["another session's token", bearer(other.client_token).headers],
    ['a forged token', bearer(`vn_ct_${'A'.repeat(40)}`).headers],
  ];
  for (const [name, headers] of wrong) {
    const res = await call(headers);
    expect(res.status, name).toBe(401);
    expect((await res.json()).error.code, name).toBe('unauthorized');
  }
}
