import { randomAlphanumeric } from '@idv/core';
import type { Store } from '../store.ts';

/** What `npm start` prints and writes to `.data/local.json`. */
export interface LocalCredentials {
  base_url: string;
  test_key: string;
  live_key: string;
  console: { email: string; password: string };
  /** The platform operator (a separate account: live activation, suspension), at /console/operator. */
  operator?: { email: string; password: string };
  org_id: string;
  app_id: string;
}

export const LOCAL_OWNER_EMAIL = 'owner@example.com';
export const LOCAL_OPERATOR_EMAIL = 'operator@example.com';

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
  if (previous && (await stillValid(store, previous))) {
    // The organisation list came after the first seeds: a kept organisation joins it here.
    const org = await store.organisations.get(previous.org_id);
    if (org) await store.organisations.ensureListed(org);
    return { ...previous, base_url: baseUrl, operator: await seedOperator(store, previous.operator) };
  }
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
    operator: await seedOperator(store, previous?.operator),
    org_id: org.id,
    app_id: app.id,
  };
}

/** The local platform operator: kept while its password still works, else a new one is made. */
async function seedOperator(
  store: Store,
  previous: LocalCredentials['operator'],
): Promise<NonNullable<LocalCredentials['operator']>> {
  if (previous && (await store.operators.authenticate(previous.email, previous.password))) return previous;
  const password = randomAlphanumeric(20);
  // A lost password (deleted local.json) cannot be recovered: a new operator address is made.
  const email = (await store.operators.getByEmail(LOCAL_OPERATOR_EMAIL))
    ? `operator+${randomAlphanumeric(6)}@example.com`
    : LOCAL_OPERATOR_EMAIL;
  await store.operators.create({ email, password });
  return { email, password };
}

async function stillValid(store: Store, creds: LocalCredentials): Promise<boolean> {
  const [test, live] = await Promise.all([
    store.apiKeys.findActiveBySecret(creds.test_key),
    store.apiKeys.findActiveBySecret(creds.live_key),
  ]);
  const user = await store.users.authenticate(creds.console.email, creds.console.password);
  return Boolean(test && live && user);
}
