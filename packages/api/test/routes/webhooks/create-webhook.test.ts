import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import {
  bearer,
  createTestOrganisation,
  expectError,
  expectWrongCredentialsRefused,
  testApp,
  testStore,
} from '../../support.ts';
import { postJson, webhookApp } from './support.ts';

describe('POST /v1/webhooks (createWebhook)', () => {
  const app = webhookApp();

  it('creates an endpoint with a whsec_ secret shown only in the creation response', async () => {
    const org = await createTestOrganisation();
    const res = await app.request(
      '/v1/webhooks',
      postJson(org.testKey, { url: 'https://hooks.example.com/idv', description: 'Production receiver' }),
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
      const res = await app.request('/v1/webhooks', postJson(org.testKey, { url, description: 'x' }));
      expect(res.status, url).toBe(400);
      expect(await expectError(res, 400, 'invalid_request')).toMatch(/^url: /);
    }
    const list = await (await app.request('/v1/webhooks', bearer(org.testKey))).json();
    expect(list.data).toEqual([]);
  });

  it('accepts http://localhost only when the allowance is on (off by default)', async () => {
    const org = await createTestOrganisation();
    const body = { url: 'http://127.0.0.1:4000/hook', description: 'local' };
    expect((await app.request('/v1/webhooks', postJson(org.testKey, body))).status).toBe(201);
    const strict = testApp({ webhooks: { allowLocalhost: false } });
    const res = await strict.request('/v1/webhooks', postJson(org.testKey, body));
    expect(await expectError(res, 400, 'invalid_request')).toContain('localhost');
  });

  it('allows at most 16 endpoints per organisation (409 conflict), and one more after a deletion', async () => {
    const org = await createTestOrganisation();
    const ids: string[] = [];
    for (let i = 0; i < 16; i++) {
      const key = i % 2 ? org.liveKey : org.testKey;
      const res = await app.request(
        '/v1/webhooks',
        postJson(key, { url: `https://hooks.example.com/${i}`, description: `#${i}` }),
      );
      expect(res.status).toBe(201);
      ids.push((await res.json()).id);
    }
    const over = await app.request(
      '/v1/webhooks',
      postJson(org.testKey, { url: 'https://hooks.example.com/x' }),
    );
    await expectError(over, 409, 'conflict');
    // Another organisation has its own allowance.
    const other = await createTestOrganisation();
    expect(
      (await app.request('/v1/webhooks', postJson(other.testKey, { url: 'https://hooks.example.com/o' })))
        .status,
    ).toBe(201);

    expect(
      (await app.request(`/v1/webhooks/${ids[0]}`, { method: 'DELETE', ...bearer(org.testKey) })).status,
    ).toBe(200);
    const again = await app.request(
      '/v1/webhooks',
      postJson(org.testKey, { url: 'https://hooks.example.com/y' }),
    );
    expect(again.status).toBe(201);
  });

  it('validates the body', async () => {
    const org = await createTestOrganisation();
    expect(
      await expectError(
        await app.request('/v1/webhooks', postJson(org.testKey, { description: 'x' })),
        400,
        'invalid_request',
      ),
    ).toContain('url');
    const long = { url: 'https://hooks.example.com/a', description: 'x'.repeat(501) };
    expect(
      await expectError(
        await app.request('/v1/webhooks', postJson(org.testKey, long)),
        400,
        'invalid_request',
      ),
    ).toContain('description');
  });

  it('refuses every wrong credential with 401 unauthorized, creating nothing', async () => {
    await expectWrongCredentialsRefused((headers) =>
      app.request('/v1/webhooks', {
        method: 'POST',
        body: JSON.stringify({ url: 'https://hooks.example.com/idv' }),
        headers: { ...headers, 'content-type': 'application/json' },
      }),
    );
  });
});
