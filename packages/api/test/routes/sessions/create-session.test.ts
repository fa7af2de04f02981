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
import { openSession, postJson } from './session-support.ts';

const t0 = new Date('2030-03-01T12:00:00.000Z');

describe('POST /v1/sessions (createSession)', () => {
  it('opens a session with a client token, kept only as a hash, and a url carrying it after #', async () => {
    const org = await createTestOrganisation();
    const app = testApp({ now: () => t0 });
    const res = await app.request(
      '/v1/sessions',
      postJson(org.testKey, { reference: 'file-7', document_type: 'passport' }),
    );
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({
      id: expect.stringMatching(/^ses_[a-z0-9]{6,}$/),
      client_token: expect.stringMatching(/^vn_ct_[A-Za-z0-9]{40}$/),
      url: `http://localhost:8787/capture/${body.id}#${body.client_token}`,
      status: 'open',
      mode: 'test',
      reference: 'file-7',
      document_type: 'passport',
      expires_at: '2030-03-01T12:15:00.000Z',
      created_at: '2030-03-01T12:00:00.000Z',
      verification_id: null,
      verification: null,
    });
    const store = testStore();
    const raw = await store.clients.doc.send(
      new GetCommand({ TableName: store.config.tableName, Key: { pk: `SES#${body.id}`, sk: 'SES' } }),
    );
    expect(JSON.stringify(raw.Item)).not.toContain(body.client_token);
    // The mode comes from the key.
    expect((await (await app.request('/v1/sessions', postJson(org.liveKey, {}))).json()).mode).toBe('live');
  });

  it('takes ttl_seconds from 60 to 3600 and refuses anything else with 400', async () => {
    const org = await createTestOrganisation();
    const app = testApp({ now: () => t0 });
    const post = (body: unknown) => app.request('/v1/sessions', postJson(org.testKey, body));
    expect((await (await post({ ttl_seconds: 60 })).json()).expires_at).toBe('2030-03-01T12:01:00.000Z');
    expect((await post({ ttl_seconds: 3600 })).status).toBe(201);
    for (const bad of [
      { ttl_seconds: 59 },
      { ttl_seconds: 3601 },
      { ttl_seconds: 90.5 },
      { document_type: 'cni_old' },
      { reference: 'x'.repeat(257) },
      { extra: 1 },
    ]) {
      await expectError(await post(bad), 400, 'invalid_request');
    }
  });

  it('refuses wrong credentials and a client token', async () => {
    const app = testApp();
    await expectWrongCredentialsRefused((headers) =>
      app.request('/v1/sessions', {
        method: 'POST',
        body: '{}',
        headers: { ...headers, 'content-type': 'application/json' },
      }),
    );
    const org = await createTestOrganisation();
    const session = await openSession(app, org.testKey);
    const message = await expectError(
      await app.request('/v1/sessions', postJson(session.client_token, {})),
      401,
      'unauthorized',
    );
    expect(message).toContain('client token');
    // And on every other secret-key route.
    await expectError(
      await app.request('/v1/verifications', bearer(session.client_token)),
      401,
      'unauthorized',
    );
  });
});
