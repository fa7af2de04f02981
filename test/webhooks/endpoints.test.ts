import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { bearer, createTestOrganisation, testApp, testStore } from '../support/stack.ts';

const json = (key: string, body: unknown) => ({
  method: 'POST',
  body: JSON.stringify(body),
  ...bearer(key, { 'content-type': 'application/json' }),
});

describe('webhook endpoints API', () => {
  // The localhost allowance on (as in local runs); public hosts "resolve" through a stub, since
  // the test machine has no DNS.
  const app = testApp({
    webhooks: {
      allowLocalhost: true,
      resolve: async (host) => (host.endsWith('.internal.example') ? ['10.0.0.7'] : ['93.184.215.14']),
    },
  });

  it('creates an endpoint with a whsec_ secret shown only in the creation response', async () => {
    const org = await createTestOrganisation();
    const res = await app.request(
      '/v1/webhooks',
      json(org.testKey, { url: 'https://hooks.example.com/idv', description: 'Production receiver' }),
    );
    expect(res.status).toBe(201);
    const created = await res.json();
    expect(created).toEqual({
      id: expect.stringMatching(/^whe_[a-z0-9]{6,}$/),
      url: 'https://hooks.example.com/idv',
      description: 'Production receiver',
      app_id: org.appId,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9]{32,}$/),
    });

    // Listed with either key of the organisation (endpoints receive test and live events both),
    // never with the secret.
    for (const key of [org.testKey, org.liveKey]) {
      const list = await app.request('/v1/webhooks', bearer(key));
      expect(list.status).toBe(200);
      const body = await list.json();
      expect(body).toEqual({ data: [{ ...created, secret: undefined }], next_cursor: null });
      expect(JSON.stringify(body)).not.toContain(created.secret);
    }

    // Stored sealed with the master key (the worker can open it to sign), never in clear.
    const store = testStore();
    const raw = await store.clients.doc.send(
      new GetCommand({ TableName: store.config.tableName, Key: { pk: `WHE#${created.id}`, sk: 'WHE' } }),
    );
    expect(JSON.stringify(raw.Item)).not.toContain(created.secret);
    expect(raw.Item?.signing_secret_sealed).toEqual(expect.any(String));
    expect((await store.webhookEndpoints.getSigningTarget(created.id))?.secret).toBe(created.secret);
  });

  it('refuses non-HTTPS, private, metadata and unresolvable hosts with 400 invalid_request', async () => {
    const org = await createTestOrganisation();
    for (const url of [
      'http://hooks.example.com/idv',
      'https://169.254.169.254/latest/meta-data/',
      'https://10.1.2.3/hook',
      'https://[fd00:ec2::254]/hook',
      'https://db.internal.example/hook',
      'not a url',
    ]) {
      const res = await app.request('/v1/webhooks', json(org.testKey, { url, description: 'x' }));
      expect(res.status, url).toBe(400);
      const body = await res.json();
      expect(body.error.code).toBe('invalid_request');
      expect(body.error.message).toMatch(/^url: /);
    }
    const list = await (await app.request('/v1/webhooks', bearer(org.testKey))).json();
    expect(list.data).toEqual([]);
  });

  it('accepts http://localhost only when the allowance is on (off by default)', async () => {
    const org = await createTestOrganisation();
    const body = { url: 'http://127.0.0.1:4000/hook', description: 'local' };
    expect((await app.request('/v1/webhooks', json(org.testKey, body))).status).toBe(201);
    const strict = testApp({ webhooks: { allowLocalhost: false } });
    const res = await strict.request('/v1/webhooks', json(org.testKey, body));
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toContain('localhost');
  });

  it('allows at most 16 endpoints per organisation (409 conflict), and one more after a deletion', async () => {
    const org = await createTestOrganisation();
    const ids: string[] = [];
    for (let i = 0; i < 16; i++) {
      const res = await app.request(
        '/v1/webhooks',
        json(i % 2 ? org.liveKey : org.testKey, {
          url: `https://hooks.example.com/${i}`,
          description: `#${i}`,
        }),
      );
      expect(res.status).toBe(201);
      ids.push((await res.json()).id);
    }
    const over = await app.request('/v1/webhooks', json(org.testKey, { url: 'https://hooks.example.com/x' }));
    expect(over.status).toBe(409);
    expect((await over.json()).error.code).toBe('conflict');

    const del = await app.request(`/v1/webhooks/${ids[0]}`, { method: 'DELETE', ...bearer(org.testKey) });
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ id: ids[0], deleted: true });
    const again = await app.request(
      '/v1/webhooks',
      json(org.testKey, { url: 'https://hooks.example.com/y' }),
    );
    expect(again.status).toBe(201);
    const list = await (await app.request('/v1/webhooks', bearer(org.testKey))).json();
    expect(list.data).toHaveLength(16);
  });

  it("never shows, deletes or lists deliveries of another organisation's endpoint", async () => {
    const a = await createTestOrganisation();
    const b = await createTestOrganisation();
    const created = await (
      await app.request('/v1/webhooks', json(a.testKey, { url: 'https://hooks.example.com/a' }))
    ).json();
    const del = await app.request(`/v1/webhooks/${created.id}`, { method: 'DELETE', ...bearer(b.testKey) });
    expect(del.status).toBe(404);
    expect((await del.json()).error.code).toBe('not_found');
    const deliveries = await app.request(`/v1/webhooks/${created.id}/deliveries`, bearer(b.testKey));
    expect(deliveries.status).toBe(404);
    expect((await (await app.request('/v1/webhooks', bearer(b.testKey))).json()).data).toEqual([]);
    // Still there for its owner.
    const own = await app.request(`/v1/webhooks/${created.id}/deliveries`, bearer(a.testKey));
    expect(await own.json()).toEqual({ data: [], next_cursor: null });
  });

  it('validates the body and the id', async () => {
    const org = await createTestOrganisation();
    const noUrl = await app.request('/v1/webhooks', json(org.testKey, { description: 'x' }));
    expect(noUrl.status).toBe(400);
    const badId = await app.request('/v1/webhooks/vrf_abc123', { method: 'DELETE', ...bearer(org.testKey) });
    expect(badId.status).toBe(400);
    const unauthenticated = await app.request('/v1/webhooks');
    expect(unauthenticated.status).toBe(401);
  });
});
