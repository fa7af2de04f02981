import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { storeConfigToEnv } from '@idv/store';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { heavyJpeg, stagedUploadKeys } from '../../packages/api/test/support.ts';
import { documentPhoto, matchingSelfie } from '../support/documents.ts';
import {
  lambdaContext as context,
  startLambdaAnalyzer,
  type startLambdaEndpoint,
} from '../support/lambda-endpoint.ts';
import { createTestOrganisation, type TestOrganisation } from '../support/stack.ts';
import { imageForm, storedImageKeys } from '../support/verify-app.ts';
import { isolatedStore } from '../webhooks/support.ts';

/**
 * The large-upload path through the Lambda entry (functions/api.ts), as a deployed stage runs it:
 * API Gateway v2 events (JSON bodies as text, multipart base64-encoded, as the gateway sends
 * them), the analyzer reached through the Lambda Invoke API, the bytes PUT for real to the local
 * S3 with the presigned URLs the function signed. Nothing is mocked.
 */

type ApiResult = {
  statusCode: number;
  body: string;
  headers?: Record<string, string>;
  isBase64Encoded?: boolean;
};
type Handler = (event: unknown, context: unknown) => Promise<ApiResult>;

let api: Handler;
let lambda: Awaited<ReturnType<typeof startLambdaEndpoint>>;
let org: TestOrganisation;
const logged: string[] = [];

/** An API Gateway HTTP API (payload v2) event; binary bodies base64-encoded, JSON as text, as the gateway does. */
function gatewayEvent(method: string, path: string, headers: Record<string, string>, body?: Buffer | string) {
  const binary = Buffer.isBuffer(body);
  const length = body === undefined ? 0 : Buffer.byteLength(body);
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers: {
      host: 'abc123.execute-api.eu-west-1.amazonaws.com',
      'x-forwarded-proto': 'https',
      'x-forwarded-for': '198.51.100.11, 130.176.0.1',
      via: '2.0 9f8e7d.cloudfront.net (CloudFront)',
      ...(body === undefined ? {} : { 'content-length': String(length) }),
      ...headers,
    },
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      domainName: 'abc123.execute-api.eu-west-1.amazonaws.com',
      domainPrefix: 'abc123',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '130.176.0.1', userAgent: 'Amazon CloudFront' },
      requestId: `gw-${Math.random().toString(36).slice(2)}`,
      routeKey: '$default',
      stage: '$default',
      time: '23/Nov/2026:16:00:00 +0000',
      timeEpoch: 1795536000000,
    },
    ...(body === undefined
      ? {}
      : binary
        ? { body: (body as Buffer).toString('base64'), isBase64Encoded: true }
        : { body: body as string, isBase64Encoded: false }),
  };
}

async function callJson(path: string, key: string, payload: unknown, requestId: string) {
  const res = await api(
    gatewayEvent(
      'POST',
      path,
      { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      JSON.stringify(payload),
    ),
    context(requestId, '1024'),
  );
  return { status: res.statusCode, body: JSON.parse(res.body) };
}

beforeAll(async () => {
  const store = await isolatedStore();
  // The entries read their settings from the environment when they load, as on AWS.
  Object.assign(process.env, storeConfigToEnv(store.config));
  lambda = await startLambdaAnalyzer('idv-upload-analyzer');
  api = (await import('../../functions/api.ts')).handler as unknown as Handler;
  org = await createTestOrganisation();
  vi.spyOn(console, 'log').mockImplementation((line: unknown) => {
    logged.push(String(line));
  });
});
afterAll(async () => {
  vi.restoreAllMocks();
  await lambda?.close();
});

describe('the large-upload path through the Lambda entry', { timeout: 300_000 }, () => {
  it('uploads → presigned PUTs to S3 → a JSON verify naming them → a verdict, in live mode', async () => {
    const TWELVE_MB_CLASS = 12 * 1024 * 1024 - 64 * 1024;
    const images = {
      front: heavyJpeg(await documentPhoto('passport'), TWELVE_MB_CLASS),
      selfie: heavyJpeg(await matchingSelfie(), TWELVE_MB_CLASS),
    };
    const created = await callJson(
      '/v1/uploads',
      org.liveKey,
      {
        images: Object.entries(images).map(([kind, bytes]) => ({
          kind,
          content_type: 'image/jpeg',
          size: bytes.byteLength,
        })),
      },
      'api-uploads-1',
    );
    expect(created.status).toBe(201);
    const targets = created.body.uploads as {
      id: string;
      kind: keyof typeof images;
      url: string;
      headers: Record<string, string>;
    }[];
    expect(targets.map((t) => t.kind).sort()).toEqual(['front', 'selfie']);

    // The bytes go straight to S3, never through the gateway: 24 MB here, four times its cap.
    for (const target of targets) {
      expect(target.url).toMatch(/X-Amz-Signature=/);
      const put = await fetch(target.url, {
        method: 'PUT',
        headers: target.headers,
        body: images[target.kind],
      });
      expect(put.status, `PUT ${target.kind}`).toBe(200);
    }
    expect(await stagedUploadKeys(org.orgId)).toHaveLength(2);

    const ids = Object.fromEntries(targets.map((t) => [t.kind, t.id]));
    const verified = await callJson('/v1/verify', org.liveKey, ids, 'api-verify-1');
    expect(verified.status).toBe(200);
    expect(verified.body.id).toMatch(/^vrf_/);
    expect(verified.body.document_type).toBe('passport');
    expect(['verified', 'review', 'rejected']).toContain(verified.body.verdict);
    expect(verified.body.face_match).toMatchObject({ faces_in_selfie: 1 });

    // The staging objects are spent; the live images are kept (encrypted) under retention.
    expect(await stagedUploadKeys(org.orgId)).toEqual([]);
    expect((await storedImageKeys(org.orgId)).sort()).toEqual([
      `images/${org.orgId}/live/${verified.body.id}/front`,
      `images/${org.orgId}/live/${verified.body.id}/selfie`,
    ]);
    // One cost line for the verify, priced with the analyzer time it waited for (docs/cost.md).
    const costs = logged.filter((l) => l.includes('"invocation_cost"')).map((l) => JSON.parse(l));
    expect(costs.find((l) => l.request_id === 'api-verify-1')).toMatchObject({
      function: 'api',
      verification_id: verified.body.id,
      organisation: org.orgId,
      mode: 'live',
    });
    expect(costs.find((l) => l.caller_request_id === 'api-verify-1')).toMatchObject({ images: 2 });
    // Single use: naming the same uploads again is a conflict, in the envelope.
    const again = await callJson('/v1/verify', org.liveKey, ids, 'api-verify-2');
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
  });

  it('multipart past the cap: 413 in the envelope naming the upload path, as the edge answers it', async () => {
    // Just past the cap once base64-encoded (about 4.6 MB of image): the largest kind of
    // request that can still reach the function.
    const front = heavyJpeg(await documentPhoto('passport'), 4_800_000);
    const request = new Request('https://api.example.com/v1/verify', {
      method: 'POST',
      body: imageForm({ front }),
    });
    const body = Buffer.from(await request.arrayBuffer());
    const headers = {
      authorization: `Bearer ${org.testKey}`,
      'content-type': request.headers.get('content-type') ?? '',
    };
    const res = await api(gatewayEvent('POST', '/v1/verify', headers, body), context('api-big-1', '1024'));
    expect(res.statusCode).toBe(413);
    expect(res.headers?.['content-type']).toMatch(/^application\/json/);
    const envelope = JSON.parse(res.body);
    expect(Object.keys(envelope)).toEqual(['error']);
    expect(envelope.error.code).toBe('image_too_large');
    expect(envelope.error.message).toContain('POST /v1/uploads');

    // The CloudFront function in front of the gateway gives the same answer for the same request.
    const source = readFileSync(new URL('../../infra/edge/body-limit.js', import.meta.url), 'utf8');
    const edge = runInNewContext(`${source}\nhandler;`, {}) as (event: unknown) => {
      statusCode?: number;
      body?: { data: string };
    };
    const atEdge = edge({
      version: '1.0',
      context: { eventType: 'viewer-request' },
      viewer: { ip: '198.51.100.11' },
      request: {
        method: 'POST',
        uri: '/v1/verify',
        querystring: {},
        cookies: {},
        headers: {
          host: { value: 'api.example.com' },
          authorization: { value: headers.authorization },
          'content-type': { value: headers['content-type'] },
          'content-length': { value: String(body.byteLength) },
        },
      },
    });
    expect(atEdge.statusCode).toBe(413);
    expect(JSON.parse(atEdge.body?.data ?? '{}').error.code).toBe(envelope.error.code);
  });
});
