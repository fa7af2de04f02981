import { randomBytes } from 'node:crypto';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { type AppDeps, createApp, createLambdaAnalyzer } from '@idv/api';
import type { Analyzer } from '@idv/core';
import { billingMonth, createStore, type Store, storeConfigToEnv } from '@idv/store';
import { warmUpAnalyzer } from '@idv/vision';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  bearer,
  createTestOrganisation,
  documentPhoto,
  imageForm,
  seedVerification,
  storedImageKeys,
  type TestOrganisation,
  testStore,
} from '../../packages/api/test/support.ts';
import { startLambdaEndpoint } from '../support/lambda-endpoint.ts';
import { envelopeProblem } from './support/envelope.ts';
import { fillPath, loadOperations, operationName } from './support/openapi-operations.ts';
import { UNLIMITED } from './support/served-app.ts';
import { type SwitchableProxy, startSwitchableProxy } from './support/switchable-proxy.ts';

/**
 * Outages of each part the API depends on, against the real local stack: the analyzer (the
 * analyzer function behind the Lambda Invoke API) unreachable or too slow, DynamoDB Local and
 * the S3 server unreachable. Each part is reached through a relay that the test switches off
 * and on again (the servers behind keep running). Each time: a 503 in the envelope with
 * `retry-after`, nothing half-written (no verification without its billing count or the
 * reverse, no image left behind, the Idempotency-Key free again), and the same call succeeds
 * once the part is back.
 */
/** Each test runs real analyses; on a shared, loaded machine one can take tens of seconds. */
const SLOW_MS = 400_000;

let dynamo: SwitchableProxy;
let s3: SwitchableProxy;
let analyzerRelay: SwitchableProxy;
let lambda: Awaited<ReturnType<typeof startLambdaEndpoint>>;
/** The store as the app sees it: DynamoDB and S3 through the relays. */
let relayedStore: Store;
let analyzer: Analyzer;
/** The document photo every verification here sends (made once: rendering it takes a while). */
let passport: Uint8Array;

beforeAll(async () => {
  const config = inject('storeConfig');
  dynamo = await startSwitchableProxy(config.dynamoEndpoint ?? '');
  s3 = await startSwitchableProxy(config.s3Endpoint ?? '');
  relayedStore = createStore({ ...config, dynamoEndpoint: dynamo.endpoint, s3Endpoint: s3.endpoint });
  // The analyzer function (functions/analyzer.ts) reads the stack's configuration from its environment.
  Object.assign(process.env, storeConfigToEnv(config));
  const { handler } = await import('../../functions/analyzer.ts');
  await warmUpAnalyzer();
  lambda = await startLambdaEndpoint({ analyzer: handler as (e: unknown) => Promise<unknown> });
  analyzerRelay = await startSwitchableProxy(lambda.endpoint);
  const client = new LambdaClient({
    endpoint: analyzerRelay.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'l', secretAccessKey: 'l' },
  });
  analyzer = createLambdaAnalyzer(client, 'analyzer');
  passport = await documentPhoto('passport');
});

afterEach(async () => {
  await Promise.all([dynamo.up(), s3.up(), analyzerRelay.up()]);
});

afterAll(async () => {
  await Promise.all([dynamo?.close(), s3?.close(), analyzerRelay?.close(), lambda?.close()]);
});

function app(overrides: Partial<AppDeps> = {}) {
  return createApp({
    store: relayedStore,
    baseUrl: 'http://localhost:8787',
    analyzer,
    urlSigningKey: randomBytes(32),
    limits: UNLIMITED,
    // The healthy calls must not time out on a loaded machine; the slow case sets its own limit.
    analysisTimeoutMs: SLOW_MS / 2,
    ...overrides,
  });
}

/** The errors the outages log are expected here; keep the output readable. */
async function quietly<T>(run: () => Promise<T>): Promise<T> {
  const original = console.error;
  console.error = () => {};
  try {
    return await run();
  } finally {
    console.error = original;
  }
}

async function verifyLive(a: ReturnType<typeof app>, org: TestOrganisation, key: string): Promise<Response> {
  return a.request('/v1/verify', {
    method: 'POST',
    body: imageForm({ front: passport }),
    ...bearer(org.liveKey, { 'idempotency-key': key }),
  });
}

/** What a live verification leaves in storage, read straight from the servers (not through the relays). */
async function footprint(org: TestOrganisation) {
  const store = testStore();
  const listed = await store.verifications.list(org.orgId, 'live', 100);
  if (!listed.ok) throw new Error('the list refused its first page');
  const usage = await store.usage.get(org.orgId, billingMonth(new Date()));
  return {
    verifications: listed.page.data.length,
    billed: usage.live_verifications,
    images: (await storedImageKeys(org.orgId)).length,
  };
}

async function expectUnavailable(res: Response, code: string) {
  const text = await res.text();
  expect(res.status, text).toBe(503);
  expect(envelopeProblem(res.status, res.headers.get('content-type'), text)).toBeNull();
  expect(JSON.parse(text).error.code).toBe(code);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
}

describe('the analyzer', { timeout: SLOW_MS }, () => {
  it('unreachable: 503 analysis_unavailable, nothing kept or billed, the same call succeeds once it is back', async () => {
    const org = await createTestOrganisation();
    const a = app();
    await analyzerRelay.down();
    await expectUnavailable(await quietly(() => verifyLive(a, org, 'analyzer-down')), 'analysis_unavailable');
    expect(await footprint(org)).toEqual({ verifications: 0, billed: 0, images: 0 });

    await analyzerRelay.up();
    const retry = await verifyLive(a, org, 'analyzer-down');
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await footprint(org)).toEqual({ verifications: 1, billed: 1, images: 1 });
  });

  it('slower than the time limit: 503 analysis_unavailable, nothing kept or billed, the key free again', async () => {
    const org = await createTestOrganisation();
    // The real analysis takes far longer than 1 ms: the call gives up on it.
    const impatient = app({ analysisTimeoutMs: 1 });
    await expectUnavailable(await quietly(() => verifyLive(impatient, org, 'slow')), 'analysis_unavailable');
    expect(await footprint(org)).toEqual({ verifications: 0, billed: 0, images: 0 });

    const retry = await verifyLive(app(), org, 'slow');
    expect(retry.status).toBe(200);
    expect(await footprint(org)).toEqual({ verifications: 1, billed: 1, images: 1 });
  });
});

describe('DynamoDB', { timeout: SLOW_MS }, () => {
  it('unreachable: every operation of /openapi.json answers a documented 503 with retry-after, then recovers', async () => {
    const org = await createTestOrganisation();
    const verification = await seedVerification(org, 'test');
    const a = app();
    const operations = await loadOperations(a);
    await dynamo.down();
    const answers: string[] = [];
    await quietly(async () => {
      for (const op of operations) {
        const path = fillPath(op.path, {
          id: op.path.includes('/webhooks/')
            ? 'whe_abc'
            : op.path.includes('/sessions/')
              ? 'ses_abc'
              : verification.id,
          kind: 'front',
          token: 'abc',
        });
        const credential = op.security === 'ClientToken' ? `vn_ct_${'a'.repeat(43)}` : org.testKey;
        const res = await a.request(path, {
          method: op.method,
          ...bearer(
            credential,
            op.body?.contentType === 'application/json' ? { 'content-type': 'application/json' } : {},
          ),
          body:
            op.body?.contentType === 'application/json'
              ? JSON.stringify({ url: 'https://example.com/hook' })
              : op.body
                ? imageForm({ front: passport, image: passport })
                : undefined,
        });
        const text = await res.text();
        answers.push(`${operationName(op)} → ${res.status}`);
        // A public operation that refuses its input before reading anything (a bad signed
        // token) may still answer its 4xx; nothing answers 500 or outside the envelope.
        if (res.status !== 503) {
          expect(op.security, `${operationName(op)}: ${res.status} ${text}`).toBeNull();
          expect(res.status).toBeLessThan(500);
        } else {
          expect(op.statuses, operationName(op)).toContain(503);
          expect(Number(res.headers.get('retry-after')), operationName(op)).toBeGreaterThanOrEqual(1);
        }
        expect(
          envelopeProblem(res.status, res.headers.get('content-type'), text),
          operationName(op),
        ).toBeNull();
      }
    });
    console.log(`DynamoDB down: ${answers.join(', ')}`);
    expect(answers.filter((a) => a.endsWith('503')).length).toBeGreaterThanOrEqual(operations.length - 1);
    // The service itself is still up (its health does not depend on the table).
    expect((await a.request('/health')).status).toBe(200);

    await dynamo.up();
    const list = await a.request('/v1/verifications', bearer(org.testKey));
    expect(list.status).toBe(200);
    expect((await list.json()).data.map((v: { id: string }) => v.id)).toEqual([verification.id]);
  });

  it('lost in the middle of a verification: no verification, no billing, no image, and the key frees itself', async () => {
    const org = await createTestOrganisation();
    let clock = Date.now();
    // The real analysis, with the table going away while it runs (after the images were stored).
    const a = app({
      now: () => new Date(clock),
      analyzer: {
        analyze: async (request) => {
          await dynamo.down();
          return analyzer.analyze(request);
        },
      },
    });
    await expectUnavailable(await quietly(() => verifyLive(a, org, 'mid-flight')), 'service_unavailable');
    await dynamo.up();
    expect(await footprint(org)).toEqual({ verifications: 0, billed: 0, images: 0 });

    // The claim could not be released while the table was away: a retry at once is told to wait…
    const healthy = app({ now: () => new Date(clock) });
    const early = await verifyLive(healthy, org, 'mid-flight');
    expect(early.status).toBe(409);
    expect((await early.json()).error.code).toBe('idempotency_in_progress');
    // …and after the claim's lease (120 s) the same call runs and succeeds, billed once.
    clock += 121_000;
    const retry = await verifyLive(healthy, org, 'mid-flight');
    expect(retry.status).toBe(200);
    expect(await footprint(org)).toEqual({ verifications: 1, billed: 1, images: 1 });
  });
});

describe('S3', { timeout: SLOW_MS }, () => {
  it('unreachable: a verification answers 503, nothing kept or billed, the same call succeeds once it is back', async () => {
    const org = await createTestOrganisation();
    const a = app();
    await s3.down();
    await expectUnavailable(await quietly(() => verifyLive(a, org, 's3-down')), 'service_unavailable');
    await s3.up();
    expect(await footprint(org)).toEqual({ verifications: 0, billed: 0, images: 0 });

    const retry = await verifyLive(a, org, 's3-down');
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await footprint(org)).toEqual({ verifications: 1, billed: 1, images: 1 });
  });

  it('unreachable: a stored image cannot be served (503), and is served again once it is back', async () => {
    const org = await createTestOrganisation();
    const photo = passport;
    const verification = await seedVerification(org, 'live', { front: photo });
    const a = app();
    const link = await a.request(`/v1/verifications/${verification.id}/images/front`, bearer(org.liveKey));
    expect(link.status).toBe(200);
    const { url } = await link.json();
    const path = new URL(url).pathname + new URL(url).search;
    await s3.down();
    await expectUnavailable(await quietly(async () => a.request(path)), 'service_unavailable');
    await s3.up();
    const served = await a.request(path);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(photo);
  });
});
