import { describe, expect, it } from 'vitest';
import { createIdvClient } from '../src/index.ts';

/** Records what the client sends, and answers with a canned response. */
function recordingFetch(status: number, body: unknown) {
  const requests: Request[] = [];
  const fetch = async (input: Request) => {
    requests.push(input);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  };
  return { requests, fetch };
}

describe('createIdvClient', () => {
  it('sends the secret key as a bearer token and fills path and query parameters', async () => {
    const { requests, fetch } = recordingFetch(200, { data: [], next_cursor: null });
    const idv = createIdvClient({ baseUrl: 'http://idv.test', secretKey: 'vn_test_abc', fetch });
    const { data } = await idv.GET('/v1/webhooks/{id}/deliveries', {
      params: { path: { id: 'whe_abc123' } },
    });
    expect(data).toEqual({ data: [], next_cursor: null });
    expect(requests[0]?.url).toBe('http://idv.test/v1/webhooks/whe_abc123/deliveries');
    expect(requests[0]?.headers.get('authorization')).toBe('Bearer vn_test_abc');

    await idv.GET('/v1/verifications', { params: { query: { limit: 5 } } });
    expect(requests[1]?.url).toBe('http://idv.test/v1/verifications?limit=5');
  });

  it("sends a session's client token as the bearer token of its browser-side calls", async () => {
    const { requests, fetch } = recordingFetch(200, {});
    const idv = createIdvClient({ baseUrl: 'http://idv.test', clientToken: 'vn_ct_abc', fetch });
    await idv.GET('/v1/verifications', {});
    expect(requests[0]?.headers.get('authorization')).toBe('Bearer vn_ct_abc');
  });

  it('returns the error envelope as `error`, typed with the codes of the document', async () => {
    const { fetch } = recordingFetch(404, { error: { code: 'not_found', message: 'no such verification' } });
    const idv = createIdvClient({ baseUrl: 'http://idv.test', secretKey: 'vn_test_abc', fetch });
    const { data, error, response } = await idv.GET('/v1/verifications/{id}', {
      params: { path: { id: 'vrf_abc123' } },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error?.error.code).toBe('not_found');
  });
});

describe('bodies', () => {
  it('sends an object with Blob parts as multipart/form-data, and other bodies as JSON', async () => {
    const { requests, fetch } = recordingFetch(200, {});
    const idv = createIdvClient({ baseUrl: 'http://idv.test', secretKey: 'vn_test_abc', fetch });
    const front = new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: 'image/jpeg' });
    await idv.POST('/v1/verify', { body: { front } });
    expect(requests[0]?.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
    const form = await requests[0]?.formData();
    const part = form?.get('front');
    expect(part).toBeInstanceOf(Blob);
    expect(new Uint8Array(await (part as Blob).arrayBuffer())).toEqual(new Uint8Array([0xff, 0xd8, 0xff]));

    await idv.POST('/v1/webhooks', { body: { url: 'https://example.org/hook' } });
    expect(requests[1]?.headers.get('content-type')).toBe('application/json');
    expect(await requests[1]?.json()).toEqual({ url: 'https://example.org/hook' });
  });
});
