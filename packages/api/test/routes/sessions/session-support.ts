import type { AppDeps } from '@idv/api';
import { bearer, createTestOrganisation, testApp } from '../../../../../test/support/stack.ts';

/** Opens a session through the API with the organisation's test key; returns what the customer gets. */
export async function openSession(
  app: ReturnType<typeof testApp>,
  key: string,
  body: Record<string, unknown> = {},
): Promise<{ id: string; client_token: string; url: string; status: string; expires_at: string }> {
  const res = await app.request('/v1/sessions', {
    method: 'POST',
    body: JSON.stringify(body),
    ...bearer(key, { 'content-type': 'application/json' }),
  });
  if (res.status !== 201) throw new Error(`session not opened: ${res.status} ${await res.text()}`);
  return res.json();
}

/** A multipart body with one `image` part. */
export function onePart(bytes: Uint8Array, name = 'image'): FormData {
  const form = new FormData();
  form.append(name, new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), `${name}.jpg`);
  return form;
}

export async function sessionFixture(overrides: Partial<AppDeps> = {}, body: Record<string, unknown> = {}) {
  const org = await createTestOrganisation();
  const app = testApp(overrides);
  const session = await openSession(app, org.testKey, body);
  return { org, app, session };
}

export { bearer };
