import { describe, expect, it } from 'vitest';
import { createIdvClient, MULTIPART_LIMIT_BYTES, verifyImages } from '../src/index.ts';

/** Answers like the API and storage would, and records every request. */
function fakeService() {
  const requests: { method: string; url: string; type: string | null; body: string | number }[] = [];
  const fetch = async (input: Request | string, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const bytes = await request.arrayBuffer();
    const type = request.headers.get('content-type');
    requests.push({
      method: request.method,
      url: request.url,
      type,
      body: type?.includes('json') ? new TextDecoder().decode(bytes) : bytes.byteLength,
    });
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (request.url.endsWith('/v1/uploads')) {
      const asked = JSON.parse(new TextDecoder().decode(bytes)) as {
        images: { kind: string; size: number }[];
      };
      return json(201, {
        uploads: asked.images.map((i) => ({
          id: `upl_${i.kind}`,
          kind: i.kind,
          method: 'PUT',
          url: `http://storage.test/${i.kind}?X-Amz-Signature=abc`,
          headers: { 'content-type': 'image/jpeg' },
          size: i.size,
          expires_at: '',
          usable_until: '',
        })),
      });
    }
    if (request.url.startsWith('http://storage.test/')) return new Response(null, { status: 200 });
    return json(200, { id: 'vrf_abc' });
  };
  return { requests, fetch: fetch as typeof globalThis.fetch };
}

const jpeg = (size: number) => new Blob([new Uint8Array(size)], { type: 'image/jpeg' });

describe('verifyImages', () => {
  it('sends small images in one multipart POST /v1/verify', async () => {
    const { requests, fetch } = fakeService();
    const idv = createIdvClient({ baseUrl: 'http://idv.test', secretKey: 'vn_test_abc', fetch });
    const { data } = await verifyImages(
      idv,
      { front: jpeg(1000), selfie: jpeg(1000) },
      { idempotencyKey: 'k1' },
    );
    expect(data).toEqual({ id: 'vrf_abc' });
    expect(requests).toHaveLength(1);
    expect(requests[0]?.type).toMatch(/^multipart\/form-data/);
  });

  it('sends images above the gateway’s reach through direct uploads, then names them', async () => {
    const { requests, fetch } = fakeService();
    const idv = createIdvClient({ baseUrl: 'http://idv.test', secretKey: 'vn_test_abc', fetch });
    const big = MULTIPART_LIMIT_BYTES;
    const { data } = await verifyImages(idv, { front: jpeg(big), back: jpeg(10) }, { fetch });
    expect(data).toEqual({ id: 'vrf_abc' });
    expect(requests.map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual([
      'POST http://idv.test/v1/uploads',
      expect.stringMatching(/^PUT http:\/\/storage\.test\/(front|back)$/),
      expect.stringMatching(/^PUT http:\/\/storage\.test\/(front|back)$/),
      'POST http://idv.test/v1/verify',
    ]);
    expect(JSON.parse(String(requests[0]?.body))).toEqual({
      images: [
        { kind: 'front', content_type: 'image/jpeg', size: big },
        { kind: 'back', content_type: 'image/jpeg', size: 10 },
      ],
    });
    const put = requests.find((r) => r.url.includes('/front'));
    expect(put?.body).toBe(big);
    expect(requests[3]?.type).toContain('application/json');
    expect(JSON.parse(String(requests[3]?.body))).toEqual({ front: 'upl_front', back: 'upl_back' });
  });
});
