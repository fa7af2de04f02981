import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { AWS_GATEWAY_LIMITS } from '@idv/api';
import { describe, expect, it } from 'vitest';
import { eventBytes } from '../../packages/api/src/http/gateway-limits.ts';

/**
 * The CloudFront Function in front of the API (infra/edge/body-limit.js), run offline as
 * CloudFront runs it: the file as it is deployed, in a bare JavaScript context (no Node
 * globals, no imports), called with viewer-request events of the shape CloudFront sends.
 */

const source = readFileSync(new URL('../../infra/edge/body-limit.js', import.meta.url), 'utf8');
type CfValue = { value: string; multivalue?: { value: string }[] };
type CfRequest = {
  method: string;
  uri: string;
  querystring: Record<string, CfValue>;
  headers: Record<string, CfValue>;
  cookies: Record<string, CfValue>;
};
type CfResponse = {
  statusCode: number;
  statusDescription: string;
  headers: Record<string, { value: string }>;
  body: { encoding: string; data: string };
};
const handler = runInNewContext(`${source}\nhandler;`, {}) as (event: unknown) => CfRequest | CfResponse;

/** The edge's margin for headers CloudFront and the gateway add (ADDED_HEADER_BYTES). */
const ADDED_HEADER_BYTES = 1024;
const MULTIPART = 'multipart/form-data; boundary=----formdata-undici-064392561474';

/** A viewer-request event as CloudFront Functions receives it (headers lower-cased). */
function viewerRequest(request: {
  method?: string;
  uri: string;
  headers?: Record<string, string>;
  querystring?: Record<string, string>;
  cookies?: Record<string, string>;
}) {
  const wrap = (values: Record<string, string> = {}) =>
    Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v }]));
  return {
    version: '1.0',
    context: {
      distributionDomainName: 'd111111abcdef8.cloudfront.net',
      distributionId: 'EDFDVBD6EXAMPLE',
      eventType: 'viewer-request',
      requestId: '4TyzHTaYWb1GX1qTfsHhEqV6HUDd_BzoBZnwfnvQc_1oF26ClkoUSEQ==',
    },
    viewer: { ip: '198.51.100.11' },
    request: <CfRequest>{
      method: request.method ?? 'POST',
      uri: request.uri,
      querystring: wrap(request.querystring),
      headers: {
        host: { value: 'api.example.com' },
        'user-agent': { value: 'curl/8.5.0' },
        accept: { value: '*/*' },
        ...wrap(request.headers),
      },
      cookies: wrap(request.cookies),
    },
  };
}

function verifyEvent(bodyBytes: number, uri = '/v1/verify', contentType = MULTIPART) {
  return viewerRequest({
    uri,
    headers: {
      authorization: 'Bearer vn_live_0123456789abcdefghij0123456789abcdefghij',
      'idempotency-key': 'order-8812',
      'content-type': contentType,
      'content-length': String(bodyBytes),
    },
  });
}

/** What the app computes for the same request (packages/api/src/http/gateway-limits.ts). */
function appEventBytes(event: ReturnType<typeof viewerRequest>, bodyBytes: number): number {
  const headers = new Headers();
  for (const [name, header] of Object.entries(event.request.headers)) headers.set(name, header.value);
  return eventBytes(bodyBytes, headers.get('content-type') ?? '', headers);
}

function isResponse(result: CfRequest | CfResponse): result is CfResponse {
  return 'statusCode' in result;
}

describe('CloudFront viewer-request function: the gateway cap at the edge', () => {
  it('answers 413 in the spec envelope, naming the upload path, for a multipart verify past the cap', () => {
    const result = handler(verifyEvent(9 * 1024 * 1024));
    expect(isResponse(result)).toBe(true);
    const response = result as CfResponse;
    expect(response.statusCode).toBe(413);
    expect(response.headers['content-type']?.value).toBe('application/json');
    expect(response.headers['cache-control']?.value).toBe('no-store');
    expect(response.body.encoding).toBe('text');
    const body = JSON.parse(response.body.data);
    // The envelope and nothing else (spec, Errors).
    expect(Object.keys(body)).toEqual(['error']);
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message']);
    expect(body.error.code).toBe('image_too_large');
    expect(body.error.message).toContain('the request is 9.0 MB');
    expect(body.error.message).toContain('POST /v1/uploads');
    expect(body.error.message).toContain('JSON POST /v1/verify');
    // A CloudFront Function's whole answer must stay small; this one is a few hundred bytes.
    expect(response.body.data.length).toBeLessThan(1024);
  });

  it("names the session's own upload route, readable from the capture page's origin", () => {
    const result = handler(verifyEvent(7 * 1024 * 1024, '/v1/sessions/ses_01JD2V6W7N3Q/verify'));
    const response = result as CfResponse;
    expect(response.statusCode).toBe(413);
    const { error } = JSON.parse(response.body.data);
    expect(error.message).toContain('POST /v1/sessions/ses_01JD2V6W7N3Q/uploads');
    expect(error.message).toContain('JSON POST /v1/sessions/ses_01JD2V6W7N3Q/verify');
    expect(response.headers['access-control-allow-origin']?.value).toBe('*');
  });

  it('passes a request under the cap through unchanged but for the viewer address: method, path, query, every header and cookie', () => {
    const event = viewerRequest({
      uri: '/v1/verify',
      querystring: { trace: '1' },
      cookies: { idv_console: 'abc' },
      headers: {
        authorization: 'Bearer vn_test_0123456789abcdefghij0123456789abcdefghij',
        'idempotency-key': 'order-8813',
        'content-type': MULTIPART,
        'content-length': String(4 * 1024 * 1024),
        'x-forwarded-for': '203.0.113.7',
        // A caller's own claim is replaced, never passed on.
        'x-idv-viewer-ip': '10.0.0.1',
      },
    });
    const expected = structuredClone(event.request);
    expected.headers['x-idv-viewer-ip'] = { value: '198.51.100.11' };
    const result = handler(event);
    expect(result).toBe(event.request);
    expect(result).toEqual(expected);
  });

  it("never passes on a caller's own viewer address, even when the event names no viewer", () => {
    const event: Partial<ReturnType<typeof viewerRequest>> = viewerRequest({
      method: 'GET',
      uri: '/health',
      headers: { 'x-idv-viewer-ip': '10.0.0.1' },
    });
    delete event.viewer;
    const result = handler(event) as CfRequest;
    expect(result.headers['x-idv-viewer-ip']).toBeUndefined();
    expect(result.uri).toBe('/health');
  });

  it('passes reads, deletes and preflights whatever their headers', () => {
    for (const method of ['GET', 'HEAD', 'DELETE', 'OPTIONS']) {
      const event = viewerRequest({
        method,
        uri: '/v1/verifications/vrf_01JD2V6W7N3Q',
        querystring: { include: 'images' },
        headers: { authorization: 'Bearer vn_test_x' },
      });
      expect(handler(event)).toBe(event.request);
    }
  });

  it('passes a chunked body without Content-Length (its size is unknown at the edge; the gateway decides)', () => {
    const event = viewerRequest({
      uri: '/v1/verify',
      headers: { 'content-type': MULTIPART, 'transfer-encoding': 'chunked' },
    });
    expect(handler(event)).toBe(event.request);
    // A Content-Length that is not a number is not measured either (CloudFront refuses such framing itself).
    const odd = verifyEvent(1);
    odd.request.headers['content-length'] = { value: '12, 12' };
    expect(handler(odd)).toBe(odd.request);
  });

  it('counts a JSON body as it travels (not base64-encoded): 5.5 MB of JSON passes, 5.5 MB of images does not', () => {
    const size = 5.5 * 1024 * 1024;
    const json = verifyEvent(size, '/v1/webhooks', 'application/json');
    expect(handler(json)).toBe(json.request);
    const multipart = verifyEvent(size);
    expect((handler(multipart) as CfResponse).statusCode).toBe(413);
  });

  it("refuses exactly what the app's own arithmetic refuses, with room for the headers added after the edge", () => {
    // The largest body the edge lets through, from the app's formula: eventBytes is monotonic in the body.
    let low = 0;
    let high = AWS_GATEWAY_LIMITS.maxEventBytes;
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      const fits =
        appEventBytes(verifyEvent(mid), mid) + ADDED_HEADER_BYTES <= AWS_GATEWAY_LIMITS.maxEventBytes;
      if (fits) low = mid;
      else high = mid - 1;
    }
    expect(low).toBeGreaterThan(4.4 * 1024 * 1024);
    for (const size of [low - 3, low, low + 1, low + 4]) {
      const event = verifyEvent(size);
      const appRefuses = appEventBytes(event, size) + ADDED_HEADER_BYTES > AWS_GATEWAY_LIMITS.maxEventBytes;
      expect(isResponse(handler(event)), `body of ${size} bytes`).toBe(appRefuses);
    }
    // What the edge passes, the app behind it accepts, with the headers CloudFront and the
    // gateway add on the way (the secret origin header, the viewer address included).
    const passed = verifyEvent(low);
    expect(handler(passed)).toBe(passed.request);
    const added = {
      via: '2.0 2b4ab3ee32a6d6fd4bb0b6b93d3e0f8d.cloudfront.net (CloudFront)',
      'x-amz-cf-id': 'x9ZQ2d8vBkh1Gd7bPHtq1c3D9tWfLr0s5aJm8YkXn2oVbE7uQwRz==',
      'x-forwarded-for': '198.51.100.11, 130.176.0.1',
      'x-forwarded-port': '443',
      'x-forwarded-proto': 'https',
      'x-idv-edge-secret': 'k3Jx9QeV0mZ4tB8wL2aN6cR1yH5uD7fGp0Wq2ErT',
      'x-amzn-trace-id': 'Root=1-6741f0a2-5c1d2e3f4a5b6c7d8e9f0a1b',
    };
    for (const [name, value] of Object.entries(added)) passed.request.headers[name] = { value };
    expect(appEventBytes(passed, low)).toBeLessThanOrEqual(AWS_GATEWAY_LIMITS.maxEventBytes);
  });

  it('fits CloudFront Functions: a plain script under 10 KB defining handler(event)', () => {
    expect(Buffer.byteLength(source)).toBeLessThan(10 * 1024);
    expect(source).not.toMatch(/\b(import|export|require)\b[\s(]/);
    expect(typeof handler).toBe('function');
  });
});
