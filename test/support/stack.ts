import { type AppDeps, createApp } from '@idv/api';
import { createStore, type Mode, type Store } from '@idv/store';
import { inject } from 'vitest';

/**
 * Test access to the real local stack started by test/global-setup.ts. Every helper creates
 * its own organisation, so test files never see each other's data.
 */
let store: Store | undefined;

export function testStore(): Store {
  store ??= createStore(inject('storeConfig'));
  return store;
}

export interface TestOrganisation {
  orgId: string;
  appId: string;
  testKey: string;
  liveKey: string;
  testKeyId: string;
  liveKeyId: string;
}

export async function createTestOrganisation(
  options: { liveEnabled?: boolean } = {},
): Promise<TestOrganisation> {
  const s = testStore();
  const { org, app } = await s.organisations.create({
    name: 'Test org',
    appName: 'Test app',
    liveEnabled: options.liveEnabled ?? true,
  });
  const test = await s.apiKeys.create({ orgId: org.id, appId: app.id, mode: 'test' });
  const live = await s.apiKeys.create({ orgId: org.id, appId: app.id, mode: 'live' });
  return {
    orgId: org.id,
    appId: app.id,
    testKey: test.secret,
    liveKey: live.secret,
    testKeyId: test.record.id,
    liveKeyId: live.record.id,
  };
}

export function testApp(overrides: Partial<AppDeps> = {}) {
  return createApp({ store: testStore(), baseUrl: 'http://localhost:8787', ...overrides });
}

export function bearer(key: string, extra: Record<string, string> = {}): { headers: Record<string, string> } {
  return { headers: { authorization: `Bearer ${key}`, ...extra } };
}

export type { Mode };
