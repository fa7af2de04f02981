import { createStore, type Store } from '@idv/store';
import { beforeAll, describe, expect, inject, it } from 'vitest';

/**
 * The local S3 stand-in holds presigned PUTs to what their signature allows, as S3 does:
 * against the real local server started by test/global-setup.ts.
 */
let store: Store;
beforeAll(() => {
  store = createStore(inject('storeConfig'));
});

const key = (name: string) => `uploads/org_presign/test/${name}/front`;
const bytes = (n: number) => new Uint8Array(n).fill(7);

async function put(
  url: string,
  body: Uint8Array<ArrayBuffer>,
  contentType: string,
  headers: Record<string, string> = {},
) {
  return fetch(url, { method: 'PUT', body, headers: { 'content-type': contentType, ...headers } });
}

describe('presigned uploads on the local S3', () => {
  it('accepts the signed size and type, and the object reads back', async () => {
    const url = await store.uploads.presignPut(key('ok'), 'image/jpeg', 1000, 600);
    const res = await put(url, bytes(1000), 'image/jpeg');
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect(await store.uploads.head(key('ok'))).toEqual({ size: 1000, contentType: 'image/jpeg' });
    expect((await store.uploads.get(key('ok')))?.byteLength).toBe(1000);
  });

  it('accepts a 12 MiB body, past the stand-in’s own 11 MiB limit', async () => {
    const size = 12 * 1024 * 1024;
    const url = await store.uploads.presignPut(key('big'), 'image/png', size, 600);
    expect((await put(url, bytes(size), 'image/png')).status).toBe(200);
    expect((await store.uploads.head(key('big')))?.size).toBe(size);
  });

  it('refuses another size, another type, a forged signature and an expired URL', async () => {
    const url = await store.uploads.presignPut(key('strict'), 'image/jpeg', 1000, 600);
    const longer = await put(url, bytes(1001), 'image/jpeg');
    expect(longer.status).toBe(403);
    expect(await longer.text()).toContain('SignatureDoesNotMatch');
    expect((await put(url, bytes(1000), 'text/html')).status).toBe(403);
    const forged = url.replace(/X-Amz-Signature=[0-9a-f]+/, `X-Amz-Signature=${'0'.repeat(64)}`);
    expect((await put(forged, bytes(1000), 'image/jpeg')).status).toBe(403);
    const otherKey = url.replace('/strict/', '/other/');
    expect((await put(otherKey, bytes(1000), 'image/jpeg')).status).toBe(403);

    const old = await store.uploads.presignPut(
      key('expired'),
      'image/jpeg',
      1000,
      60,
      new Date(Date.now() - 120_000),
    );
    const expired = await put(old, bytes(1000), 'image/jpeg');
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('Request has expired');
    expect(await store.uploads.head(key('strict'))).toBeNull();
    expect(await store.uploads.head(key('expired'))).toBeNull();
  });

  it('refuses a size above 12 MiB even when signed', async () => {
    const size = 12 * 1024 * 1024 + 1;
    const url = await store.uploads.presignPut(key('huge'), 'image/jpeg', size, 600);
    const res = await put(url, bytes(size), 'image/jpeg');
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('EntityTooLarge');
  });

  it('answers the browser’s preflight as the bucket’s CORS rule does', async () => {
    const url = await store.uploads.presignPut(key('cors'), 'image/jpeg', 10, 600);
    const ok = await fetch(url, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('*');
    expect(ok.headers.get('access-control-allow-methods')).toContain('PUT');
    const del = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'DELETE' },
    });
    expect(del.status).toBe(403);
    const res = await put(url, bytes(10), 'image/jpeg', { origin: 'https://shop.example' });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});
