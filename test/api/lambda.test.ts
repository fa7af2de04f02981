import { storeConfigToEnv } from '@idv/store';
import { describe, expect, inject, it } from 'vitest';
import { createTestOrganisation } from '../support/stack.ts';

/** An API Gateway HTTP API (payload v2) event, as Lambda receives it. */
function apiGatewayEvent(path: string, headers: Record<string, string>, query = '') {
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: query,
    headers: { host: 'api.example.com', 'x-forwarded-proto': 'https', ...headers },
    requestContext: {
      accountId: '123456789012',
      apiId: 'api',
      domainName: 'api.example.com',
      domainPrefix: 'api',
      http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'test' },
      requestId: 'id',
      routeKey: '$default',
      stage: '$default',
      time: '21/Nov/2026:08:00:00 +0000',
      timeEpoch: 1795248000000,
    },
    isBase64Encoded: false,
  };
}

describe('functions/api.ts (hono/aws-lambda)', () => {
  it('serves the app from an API Gateway v2 event', async () => {
    Object.assign(process.env, storeConfigToEnv(inject('storeConfig')));
    const { handler } = await import('../../functions/api.ts');
    const org = await createTestOrganisation();

    type Result = { statusCode: number; body: string; headers?: Record<string, string> };
    const invoke = (event: unknown) => handler(event as never, {} as never) as Promise<Result>;
    const ok = await invoke(
      apiGatewayEvent('/v1/logs', { authorization: `Bearer ${org.testKey}` }, 'limit=3'),
    );
    expect(ok.statusCode).toBe(200);
    expect(JSON.parse(ok.body)).toEqual({ data: [], next_cursor: null });
    expect(ok.headers?.['x-ratelimit-limit']).toBe('120');

    const denied = await invoke(apiGatewayEvent('/v1/logs', {}));
    expect(denied.statusCode).toBe(401);
    expect(JSON.parse(denied.body).error.code).toBe('unauthorized');
  });
});
