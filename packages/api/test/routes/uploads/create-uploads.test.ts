import { beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestOrganisation,
  expectError,
  expectWrongCredentialsRefused,
  type TestOrganisation,
  testApp,
  testStore,
} from '../../support.ts';

const MiB = 1024 * 1024;

function ask(
  app: ReturnType<typeof testApp>,
  key: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return app.request('/v1/uploads', {
    method: 'POST',
    ...bearer(key, { 'content-type': 'application/json', ...headers }),
    body: JSON.stringify(body),
  });
}

type Target = {
  id: string;
  kind: string;
  url: string;
  method: string;
  headers: Record<string, string>;
  size: number;
  expires_at: string;
  usable_until: string;
};

describe('POST /v1/uploads', () => {
  let app: ReturnType<typeof testApp>;
  let org: TestOrganisation;

  beforeAll(async () => {
    app = testApp();
    org = await createTestOrganisation();
  });

  it('returns one presigned PUT per image, scoped to the organisation and mode, that accepts exactly that file', async () => {
    const res = await ask(app, org.testKey, {
      images: [
        { kind: 'front', content_type: 'image/jpeg', size: 12 * MiB },
        { kind: 'selfie', content_type: 'image/png', size: 2000 },
      ],
    });
    expect(res.status).toBe(201);
    const { uploads } = (await res.json()) as { uploads: Target[] };
    expect(uploads.map((u) => u.kind)).toEqual(['front', 'selfie']);
    const [front, selfie] = uploads as [Target, Target];
    expect(front.id).toMatch(/^upl_[a-z0-9]+$/);
    expect(front).toMatchObject({ method: 'PUT', headers: { 'content-type': 'image/jpeg' }, size: 12 * MiB });
    expect(new URL(front.url).pathname).toBe(
      `/${testStore().config.uploadsBucketName}/uploads/${org.orgId}/test/${front.id}/front`,
    );
    const minutes = (iso: string) => Math.round((Date.parse(iso) - Date.now()) / 60_000);
    expect(minutes(front.expires_at)).toBe(10);
    expect(minutes(front.usable_until)).toBe(60);

    const put = await fetch(selfie.url, {
      method: 'PUT',
      headers: selfie.headers,
      body: new Uint8Array(2000),
    });
    expect(put.status).toBe(200);
    const record = await testStore().uploadRecords.get(selfie.id);
    expect(record).toMatchObject({
      org_id: org.orgId,
      mode: 'test',
      session_id: null,
      kind: 'selfie',
      size: 2000,
    });
  });

  it('live keys get live-scoped uploads', async () => {
    const res = await ask(app, org.liveKey, {
      images: [{ kind: 'front', content_type: 'image/webp', size: 10 }],
    });
    expect(res.status).toBe(201);
    const { uploads } = (await res.json()) as { uploads: Target[] };
    expect(uploads[0]?.url).toContain(`/uploads/${org.orgId}/live/`);
  });

  it('refuses an image above 12 MiB with 413, in the envelope', async () => {
    const res = await ask(app, org.testKey, {
      images: [{ kind: 'front', content_type: 'image/jpeg', size: 12 * MiB + 1 }],
    });
    const message = await expectError(res, 413, 'image_too_large');
    expect(message).toContain('12 MB');
  });

  it('refuses malformed requests with 400', async () => {
    const bad: [string, unknown][] = [
      ['no image', { images: [] }],
      [
        'a kind twice',
        { images: [1, 2].map(() => ({ kind: 'front', content_type: 'image/jpeg', size: 1 })) },
      ],
      ['another type', { images: [{ kind: 'front', content_type: 'image/gif', size: 1 }] }],
      ['an unknown kind', { images: [{ kind: 'passport', content_type: 'image/jpeg', size: 1 }] }],
      ['an empty file', { images: [{ kind: 'front', content_type: 'image/jpeg', size: 0 }] }],
      [
        'an extra field',
        { images: [{ kind: 'front', content_type: 'image/jpeg', size: 1, acl: 'public-read' }] },
      ],
    ];
    for (const [name, body] of bad) {
      const res = await ask(app, org.testKey, body);
      expect(res.status, name).toBe(400);
      await expectError(res, 400, 'invalid_request');
    }
  });

  it('refuses wrong credentials with 401', async () => {
    await expectWrongCredentialsRefused((headers) =>
      app.request('/v1/uploads', {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ images: [{ kind: 'front', content_type: 'image/jpeg', size: 1 }] }),
      }),
    );
  });

  it('the presigned PUT refuses another size, another type, and an expired URL', async () => {
    const res = await ask(app, org.testKey, {
      images: [{ kind: 'back', content_type: 'image/jpeg', size: 1000 }],
    });
    const [target] = ((await res.json()) as { uploads: Target[] }).uploads as [Target];
    const oversize = await fetch(target.url, {
      method: 'PUT',
      headers: target.headers,
      body: new Uint8Array(5000),
    });
    expect(oversize.status).toBe(403);
    const wrongType = await fetch(target.url, {
      method: 'PUT',
      headers: { 'content-type': 'text/html' },
      body: new Uint8Array(1000),
    });
    expect(wrongType.status).toBe(403);
    expect(await testStore().uploads.head(`uploads/${org.orgId}/test/${target.id}/back`)).toBeNull();

    // An upload asked for 11 minutes ago: its URL lived 10.
    const past = testApp({ now: () => new Date(Date.now() - 11 * 60_000) });
    const old = await ask(past, org.testKey, {
      images: [{ kind: 'front', content_type: 'image/jpeg', size: 10 }],
    });
    const [stale] = ((await old.json()) as { uploads: Target[] }).uploads as [Target];
    const expired = await fetch(stale.url, {
      method: 'PUT',
      headers: stale.headers,
      body: new Uint8Array(10),
    });
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('expired');
  });
});
