import { randomAlphanumeric } from '@idv/core';
import type { Store } from '../store.ts';

/** What `npm start` prints and writes to `.data/local.json`. */
export interface LocalCredentials {
  base_url: string;
  test_key: string;
  live_key: string;
  console: { email: string; password: string };
  org_id: string;
  app_id: string;
}

export const LOCAL_OWNER_EMAIL = 'owner@example.com';

/**
 * Seeds one organisation (live mode activated) with one application, an owner console user,
 * a test key and a live key — unless `previous` still holds working keys, in which case they
 * are kept, so keys stay valid across restarts.
 */
export async function seedLocal(
  store: Store,
  baseUrl: string,
  previous: LocalCredentials | null,
): Promise<LocalCredentials> {
  if (previous && (await stillValid(store, previous))) return { ...previous, base_url: baseUrl };
  const { org, app } = await store.organisations.create({
    name: 'Local organisation',
    appName: 'Local application',
    liveEnabled: true,
  });
  const password = randomAlphanumeric(20);
  const email = previous ? `owner+${org.id}@example.com` : LOCAL_OWNER_EMAIL;
  await store.users.create({ orgId: org.id, email, role: 'owner', password });
  const test = await store.apiKeys.create({ orgId: org.id, appId: app.id, mode: 'test' });
  const live = await store.apiKeys.create({ orgId: org.id, appId: app.id, mode: 'live' });
  return {
    base_url: baseUrl,
    test_key: test.secret,
    live_key: live.secret,
    console: { email, password },
    org_id: org.id,
    app_id: app.id,
  };
}

async function stillValid(store: Store, creds: LocalCredentials): Promise<boolean> {
  const [test, live] = await Promise.all([
    store.apiKeys.findActiveBySecret(creds.test_key),
    store.apiKeys.findActiveBySecret(creds.live_key),
  ]);
  const user = await store.users.authenticate(creds.console.email, creds.console.password);
  return Boolean(test && live && user);
}
