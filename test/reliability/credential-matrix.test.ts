import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createTestOrganisation,
  seedVerification,
  type TestOrganisation,
  testStore,
} from '../../packages/api/test/support.ts';
import { consoleApp, createTeam, signedIn } from '../../packages/console/test/support.ts';
import { envelopeProblem } from './support/envelope.ts';
import { fillPath, loadOperations, type Operation, operationName } from './support/openapi-operations.ts';
import { PUBLIC_RESOLVER, UNLIMITED } from './support/served-app.ts';

/**
 * Every operation of /openapi.json × every kind of credential → the one expected status, from
 * one table. The resources belong to organisation A in test mode; the owner's call carries a
 * body the operation refuses after authentication (so the matrix writes nothing), or reads.
 * A route added to the contract without a row in OWNER_STATUS fails the test.
 */
type Credential =
  | 'none'
  | 'malformed'
  | 'unknown key'
  | 'revoked key'
  | 'test key'
  | 'live key (other mode)'
  | "other organisation's key"
  | 'client token'
  | 'expired client token'
  | "other organisation's client token"
  | 'console cookie';

const CREDENTIALS: Credential[] = [
  'none',
  'malformed',
  'unknown key',
  'revoked key',
  "other organisation's key",
  'client token',
  'expired client token',
  "other organisation's client token",
  'console cookie',
  // Last: these two delete a webhook endpoint each (their own organisation's).
  'live key (other mode)',
  'test key',
];

/**
 * The status the rightful caller gets (test key for secret-key operations, the session's client
 * token for browser ones), with the request each operation is sent (see `requestFor`).
 */
const OWNER_STATUS: Record<string, number> = {
  'GET /v1/logs': 200,
  'POST /v1/verify': 400, // no image: refused after authentication
  'GET /v1/verifications': 200,
  'GET /v1/verifications/{id}': 200,
  'GET /v1/verifications/{id}/images/{kind}': 403, // live_only: test images are never kept
  'GET /v1/image-content/{token}': 404, // a token that was never signed
  'POST /v1/webhooks': 400, // no url
  'GET /v1/webhooks': 200,
  'DELETE /v1/webhooks/{id}': 200,
  'GET /v1/webhooks/{id}/deliveries': 200,
  'POST /v1/sessions': 400, // ttl_seconds below 60
  'GET /v1/sessions/{id}': 200,
  'POST /v1/sessions/{id}/verify': 400, // no image
  'POST /v1/sessions/{id}/precheck': 200, // no image: `checked: false`, as any pre-check fault
  'POST /v1/sessions/{id}/mrz': 400, // no image
  'POST /v1/uploads': 400, // no `images` list
  'POST /v1/sessions/{id}/uploads': 400, // no `images` list
};

/** What a secret-key operation answers each credential that is not the owner's test key. */
function expectedForSecretKeyOperation(op: Operation, credential: Credential): number {
  switch (credential) {
    case 'live key (other mode)':
      // Webhook endpoints belong to the organisation, not to a mode (one endpoint receives both
      // modes' events, `data.mode` telling them apart): the live key manages them as the test
      // key does. Everything else of test mode is invisible to it.
      if (op.path.startsWith('/v1/webhooks')) return OWNER_STATUS[operationName(op)] ?? 0;
      return op.path.includes('{id}') ? 404 : (OWNER_STATUS[operationName(op)] ?? 0);
    case "other organisation's key":
      // Reads of A's resources by id are "not found"; lists answer, without A's data;
      // creations are refused on their body like the owner's. Image links refuse a test key
      // (403 live_only) before looking anything up, which tells nothing about A.
      if (OWNER_STATUS[operationName(op)] === 403) return 403;
      return op.path.includes('{id}') ? 404 : (OWNER_STATUS[operationName(op)] ?? 0);
    default:
      return 401;
  }
}

function expectedForClientTokenOperation(op: Operation, credential: Credential): number {
  switch (credential) {
    case 'client token':
      return OWNER_STATUS[operationName(op)] ?? 0;
    case 'expired client token':
      return 410; // its own session's path: session_expired
    default:
      return 401;
  }
}

interface World {
  a: TestOrganisation;
  b: TestOrganisation;
  revokedKey: string;
  verificationId: string;
  webhookId: string;
  /** A second endpoint of A: the live key deletes the first, the test key this one. */
  ownerWebhookId: string;
  sessionId: string;
  clientToken: string;
  expiredSessionId: string;
  expiredClientToken: string;
  otherClientToken: string;
  consoleCookie: string;
}

let app: ReturnType<typeof consoleApp>;
let operations: Operation[];
let world: World;

beforeAll(async () => {
  app = consoleApp({ limits: UNLIMITED, webhooks: PUBLIC_RESOLVER, urlSigningKey: randomBytes(32) });
  operations = await loadOperations(app);
  const team = await createTeam();
  const a = team.org;
  const b = await createTestOrganisation();
  const revoked = await createTestOrganisation();
  await testStore().apiKeys.revoke(revoked.orgId, revoked.testKeyId);
  const store = testStore();
  const session = await store.sessions.create({
    orgId: a.orgId,
    appId: a.appId,
    mode: 'test',
    keyId: a.testKeyId,
    ttlSeconds: 900,
  });
  const expired = await store.sessions.create(
    { orgId: a.orgId, appId: a.appId, mode: 'test', keyId: a.testKeyId, ttlSeconds: 60 },
    new Date(Date.now() - 3_600_000),
  );
  const other = await store.sessions.create({
    orgId: b.orgId,
    appId: b.appId,
    mode: 'test',
    keyId: b.testKeyId,
    ttlSeconds: 900,
  });
  const webhook = async () => {
    const res = await app.request('/v1/webhooks', {
      method: 'POST',
      headers: { authorization: `Bearer ${a.testKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/matrix' }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const browser = await signedIn(app, team, 'owner');
  world = {
    a,
    b,
    revokedKey: revoked.testKey,
    verificationId: (await seedVerification(a, 'test')).id,
    webhookId: await webhook(),
    ownerWebhookId: await webhook(),
    sessionId: session.record.id,
    clientToken: session.clientToken,
    expiredSessionId: expired.record.id,
    expiredClientToken: expired.clientToken,
    otherClientToken: other.clientToken,
    consoleCookie: [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
  };
  expect(world.consoleCookie).toContain('idv_console=');
});

function headersFor(credential: Credential): Record<string, string> {
  const bearer = (value: string) => ({ authorization: `Bearer ${value}` });
  switch (credential) {
    case 'none':
      return {};
    case 'malformed':
      return { authorization: 'Token abc' };
    case 'unknown key':
      return bearer(`vn_test_${'a'.repeat(40)}`);
    case 'revoked key':
      return bearer(world.revokedKey);
    case 'test key':
      return bearer(world.a.testKey);
    case 'live key (other mode)':
      return bearer(world.a.liveKey);
    case "other organisation's key":
      return bearer(world.b.testKey);
    case 'client token':
      return bearer(world.clientToken);
    case 'expired client token':
      return bearer(world.expiredClientToken);
    case "other organisation's client token":
      return bearer(world.otherClientToken);
    case 'console cookie':
      return { cookie: world.consoleCookie };
  }
}

/** The request sent for an operation: A's resources in the path, a body refused after authentication. */
function requestFor(op: Operation, credential: Credential): { path: string; init: RequestInit } {
  const sessionId = credential === 'expired client token' ? world.expiredSessionId : world.sessionId;
  const path = fillPath(op.path, {
    id: op.path.startsWith('/v1/webhooks')
      ? credential === 'test key'
        ? world.ownerWebhookId
        : world.webhookId
      : op.path.startsWith('/v1/sessions')
        ? sessionId
        : world.verificationId,
    kind: 'front',
    token: 'never-signed',
  });
  const headers = headersFor(credential);
  if (!op.body) return { path, init: { method: op.method, headers } };
  if (op.body.contentType === 'application/json') {
    const body = op.path === '/v1/sessions' ? { ttl_seconds: 1 } : {};
    return {
      path,
      init: {
        method: op.method,
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      },
    };
  }
  const form = new FormData();
  form.append('note', 'no image');
  return { path, init: { method: op.method, headers, body: form } };
}

describe('every operation × every credential', () => {
  it('has a row for every operation of /openapi.json', () => {
    const missing = operations.map(operationName).filter((name) => !(name in OWNER_STATUS));
    expect(missing, 'add each new operation to OWNER_STATUS').toEqual([]);
  });

  it('answers each credential with the expected status, and no data to the wrong ones', async () => {
    const mismatches: string[] = [];
    const table: string[] = [];
    for (const credential of CREDENTIALS) {
      // Deletions last, so that each credential's reads aim at a resource that still exists.
      const ordered = [...operations].sort(
        (x, y) => Number(x.method === 'DELETE') - Number(y.method === 'DELETE'),
      );
      for (const op of ordered) {
        const name = operationName(op);
        const expected =
          op.security === 'SecretKey'
            ? credential === 'test key'
              ? OWNER_STATUS[name]
              : expectedForSecretKeyOperation(op, credential)
            : op.security === 'ClientToken'
              ? expectedForClientTokenOperation(op, credential)
              : OWNER_STATUS[name]; // public: a credential changes nothing
        const { path, init } = requestFor(op, credential);
        const res = await app.request(path, init);
        const text = await res.text();
        table.push(`${credential} | ${name} | ${res.status}`);
        if (res.status !== expected)
          mismatches.push(
            `${credential} → ${name}: ${res.status} (expected ${expected}) ${text.slice(0, 120)}`,
          );
        if (res.status >= 400) {
          const problem = envelopeProblem(res.status, res.headers.get('content-type'), text);
          if (problem) mismatches.push(`${credential} → ${name}: outside the envelope (${problem})`);
        }
        // Nobody but the owner reads A's resources (a refusal may repeat the id it was asked for).
        const rightful =
          credential === 'test key' ||
          (op.security === 'ClientToken' && credential === 'client token') ||
          (credential === 'live key (other mode)' && op.path.startsWith('/v1/webhooks'));
        if (!rightful && res.status < 400) {
          for (const id of [world.verificationId, world.webhookId, world.sessionId, world.a.orgId]) {
            if (text.includes(id)) mismatches.push(`${credential} → ${name}: the answer names ${id}`);
          }
        }
      }
    }
    console.log(
      `credential matrix: ${table.length} calls (${operations.length} operations × ${CREDENTIALS.length} credentials)`,
    );
    expect(mismatches).toEqual([]);
  });

  it('the console takes only its own session: an API key or client token opens no console page', async () => {
    for (const credential of ['test key', 'live key (other mode)', 'client token'] as const) {
      const res = await app.request('/console/reviews', { headers: headersFor(credential) });
      expect(res.status, credential).toBe(303);
      expect(res.headers.get('location')).toBe('/console/sign-in');
    }
    const res = await app.request('/console/reviews', { headers: headersFor('console cookie') });
    expect(res.status).toBe(200);
  });
});
