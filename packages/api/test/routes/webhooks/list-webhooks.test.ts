import { describe, expect, it } from 'vitest';
import { bearer, createTestOrganisation, expectWrongCredentialsRefused } from '../../support.ts';
import { createEndpoint, webhookApp } from './support.ts';

describe('GET /v1/webhooks (listWebhooks)', () => {
  const app = webhookApp();

  it('lists the endpoints with either key of the organisation, never with their secrets', async () => {
    const org = await createTestOrganisation();
    const { secret, ...created } = await createEndpoint(app, org.testKey);
    for (const key of [org.testKey, org.liveKey]) {
      const res = await app.request('/v1/webhooks', bearer(key));
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toEqual({ data: [created], next_cursor: null });
      expect(JSON.stringify(body)).not.toContain(secret);
    }
  });

  it("never lists another organisation's endpoints", async () => {
    const a = await createTestOrganisation();
    await createEndpoint(app, a.testKey);
    const b = await createTestOrganisation();
    expect((await (await app.request('/v1/webhooks', bearer(b.testKey))).json()).data).toEqual([]);
  });

  it('refuses every wrong credential with 401 unauthorized', async () => {
    await expectWrongCredentialsRefused((headers) => app.request('/v1/webhooks', { headers }));
  });
});
