import { type Store, storeConfigToEnv } from '@idv/store';
import { eventsQueue, publishVerificationCompleted } from '@idv/webhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { documentPhoto, matchingSelfie } from '../support/documents.ts';
import {
  lambdaContext as context,
  startLambdaAnalyzer,
  type startLambdaEndpoint,
} from '../support/lambda-endpoint.ts';
import { createTestOrganisation, testStore } from '../support/stack.ts';
import { imageForm, storedImageKeys } from '../support/verify-app.ts';
import { isolatedStore, sampleVerification } from '../webhooks/support.ts';

/**
 * The Lambda entry points in functions/, each invoked as AWS would invoke it, with the event
 * shapes AWS sends, against the local stack: the API behind API Gateway v2 (a base64 multipart
 * body), the analyzer through the Invoke API, the webhook worker with an SQS batch, the purge
 * with an EventBridge scheduled event. Nothing is mocked: the entries build their own store from
 * the environment, as they do on AWS.
 */

type ApiResult = { statusCode: number; body: string; headers?: Record<string, string> };
type Handlers = {
  api: (event: unknown, context: unknown) => Promise<ApiResult>;
  worker: (batch: { Records: { messageId: string; body: string }[] }) => Promise<{
    batchItemFailures: { itemIdentifier: string }[];
  }>;
  purge: (event: unknown) => Promise<{ purged: number }>;
};

let store: Store;
let handlers: Handlers;
let lambda: Awaited<ReturnType<typeof startLambdaEndpoint>>;
const logged: string[] = [];

beforeAll(async () => {
  // Its own events queue, so the worker below sees only this file's messages.
  store = await isolatedStore();
  // The entries read their settings from the environment when they load, as on AWS.
  Object.assign(process.env, storeConfigToEnv(store.config));
  lambda = await startLambdaAnalyzer('idv-test-analyzer');
  const [api, worker, purge] = await Promise.all([
    import('../../functions/api.ts'),
    import('../../functions/webhook-worker.ts'),
    import('../../functions/purge.ts'),
  ]);
  handlers = {
    api: api.handler as unknown as Handlers['api'],
    worker: worker.handler as unknown as Handlers['worker'],
    purge: purge.handler as unknown as Handlers['purge'],
  };
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => {
    logged.push(String(line));
  });
});
afterAll(async () => {
  vi.restoreAllMocks();
  await lambda?.close();
});

/** Takes every message now in this file's events queue (the API's own events included). */
async function takeAll() {
  const all: { body: unknown }[] = [];
  for (;;) {
    const batch = await eventsQueue(store).receive({ waitSeconds: 1 });
    if (batch.length === 0) return all;
    for (const m of batch) {
      all.push(m);
      await eventsQueue(store).delete(m.receiptHandle);
    }
  }
}

/** The cost lines written since `from` (functions/invocation-cost.ts). */
function costLines(from: number): Record<string, unknown>[] {
  return logged
    .slice(from)
    .filter((l) => l.includes('"invocation_cost"'))
    .map((l) => JSON.parse(l));
}

/** An API Gateway HTTP API (payload v2) event carrying a multipart form, base64 as the gateway sends it. */
async function multipartEvent(path: string, form: FormData, headers: Record<string, string>) {
  const request = new Request('https://api.example.com', { method: 'POST', body: form });
  const body = Buffer.from(await request.arrayBuffer());
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers: {
      host: 'api.example.com',
      'x-forwarded-proto': 'https',
      'content-type': request.headers.get('content-type') ?? '',
      'content-length': String(body.byteLength),
      ...headers,
    },
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: 'api.example.com',
      domainPrefix: 'api',
      http: { method: 'POST', path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'test' },
      requestId: 'gw-req',
      routeKey: '$default',
      stage: '$default',
      time: '23/Nov/2026:08:00:00 +0000',
      timeEpoch: 1795420800000,
    },
    body: body.toString('base64'),
    isBase64Encoded: true,
  };
}

describe('Lambda entry points against the local stack', { timeout: 300_000 }, () => {
  let liveVerification: { id: string; orgId: string };

  it('API: verifies from a base64 multipart body, calls the analyzer Lambda, logs one cost line each', async () => {
    const org = await createTestOrganisation();
    const form = imageForm({ front: await documentPhoto('passport'), selfie: await matchingSelfie() });
    const from = logged.length;
    const res = await handlers.api(
      await multipartEvent('/v1/verify', form, { authorization: `Bearer ${org.liveKey}` }),
      context('api-req-1', '1024'),
    );
    expect(res.statusCode).toBe(200);
    const v = JSON.parse(res.body);
    expect(v.id).toMatch(/^vrf_/);
    expect(v.verdict).toBe('verified');
    liveVerification = { id: v.id, orgId: org.orgId };
    expect(await storedImageKeys(org.orgId)).toHaveLength(2);

    const lines = costLines(from);
    const analyzerLine = lines.find((l) => l.function === 'analyzer');
    const apiLine = lines.find((l) => l.function === 'api');
    // The analyzer's line names the API invocation that called it.
    expect(analyzerLine).toMatchObject({ caller_request_id: 'api-req-1', memory_mb: 3008, images: 2 });
    expect(apiLine).toMatchObject({
      request_id: 'api-req-1',
      verification_id: v.id,
      organisation: org.orgId,
      mode: 'live',
      memory_mb: 1024,
      analyzer_memory_mb: 3008,
      month: new Date().toISOString().slice(0, 7),
    });
    expect(lines).toHaveLength(2);
    expect(apiLine!.billed_ms).toBeGreaterThanOrEqual(apiLine!.duration_ms as number);
    expect(apiLine!.analyzer_ms).toBeGreaterThan(0);
    expect(apiLine!.duration_ms).toBeGreaterThanOrEqual(apiLine!.analyzer_ms as number);
  });

  it('API: a refused call answers in the envelope and still logs its cost line, with no verification', async () => {
    const from = logged.length;
    const org = await createTestOrganisation();
    const res = await handlers.api(
      await multipartEvent('/v1/verify', imageForm({ document_type: 'passport' }), {
        authorization: `Bearer ${org.testKey}`,
      }),
      context('api-req-2', '1024'),
    );
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(res.body).error.code).toEqual(expect.any(String));
    expect(costLines(from)).toEqual([
      expect.objectContaining({
        function: 'api',
        verification_id: null,
        organisation: org.orgId,
        mode: 'test',
      }),
    ]);
  });

  it('webhook worker: an SQS batch reports only the message to retry (partial batch failure)', async () => {
    const org = await createTestOrganisation();
    const endpoint = await store.webhookEndpoints.create({
      orgId: org.orgId,
      appId: org.appId,
      url: 'https://hooks.example.com/idv',
      description: '',
    });
    const { eventId } = await publishVerificationCompleted(store, {
      orgId: org.orgId,
      appId: org.appId,
      mode: 'test',
      verification: sampleVerification(),
    });
    const fanOut = (await takeAll()).find((m) => (m.body as { event_id?: string }).event_id === eventId);
    expect(fanOut?.body).toEqual({ kind: 'fan_out', event_id: eventId });
    // The fan-out, as SQS hands it to Lambda, with a message nobody understands.
    const first = await handlers.worker({
      Records: [
        { messageId: 'm-fan-out', body: JSON.stringify(fanOut!.body) },
        { messageId: 'm-garbage', body: '{oops' },
      ],
    });
    expect(first).toEqual({ batchItemFailures: [] });
    const [delivery] = await store.webhookDeliveries.listForEndpoint(endpoint.id);
    expect(delivery).toMatchObject({ status: 'pending', attempts: 0 });
    const [attempt] = await takeAll();
    expect(attempt?.body).toMatchObject({ kind: 'attempt', delivery_id: delivery!.id, attempt: 1 });

    // Another worker holds attempt 1 right now: that message must come back later; the
    // repeated fan-out in the same batch is done.
    expect(await store.webhookDeliveries.claim(delivery!.id, 1, new Date())).toBe(true);
    const second = await handlers.worker({
      Records: [
        { messageId: 'm-attempt', body: JSON.stringify(attempt!.body) },
        { messageId: 'm-fan-out-again', body: JSON.stringify(fanOut!.body) },
      ],
    });
    expect(second).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-attempt' }] });
  });

  it('purge: an EventBridge scheduled event past the retention period deletes the live images', async () => {
    const org = await testStore().organisations.get(liveVerification.orgId);
    const after = new Date(Date.now() + (org!.retention_days + 1) * 86_400_000);
    // Before the period ends, the same event purges nothing of this verification.
    await handlers.purge(scheduledEvent(new Date()));
    expect(await storedImageKeys(liveVerification.orgId)).toHaveLength(2);

    const result = await handlers.purge(scheduledEvent(after));
    expect(result.purged).toBeGreaterThanOrEqual(1);
    expect(await storedImageKeys(liveVerification.orgId)).toEqual([]);
    const stored = await testStore().verifications.get(liveVerification.orgId, 'live', liveVerification.id);
    expect(stored).toBeTruthy();
  });
});

/** An EventBridge scheduled event ("Scheduled Event", source aws.events), as the cron sends it. */
function scheduledEvent(time: Date) {
  return {
    version: '0',
    id: '89d1a02d-5ec7-412e-82f5-13505f849b41',
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '123456789012',
    time: time.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: 'us-east-1',
    resources: ['arn:aws:events:us-east-1:123456789012:rule/idv-production-ImagePurge'],
    detail: {},
  };
}
