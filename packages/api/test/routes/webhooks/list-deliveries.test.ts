import { describe, expect, it } from 'vitest';
import { bearer, createTestOrganisation, expectError, expectWrongCredentialsRefused } from '../../support.ts';
import { createEndpoint, webhookApp } from './support.ts';

/** Deliveries themselves are made by the worker: test/webhooks/delivery.test.ts lists real ones. */
describe('GET /v1/webhooks/{id}/deliveries (listWebhookDeliveries)', () => {
  const app = webhookApp();

  it("lists an endpoint's deliveries (none yet) in one page", async () => {
    const org = await createTestOrganisation();
    const { id } = await createEndpoint(app, org.testKey);
    const res = await app.request(`/v1/webhooks/${id}/deliveries`, bearer(org.liveKey));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: [], next_cursor: null });
  });

  it("404 for a malformed id, an unknown one and another organisation's", async () => {
    const a = await createTestOrganisation();
    const b = await createTestOrganisation();
    const { id } = await createEndpoint(app, a.testKey);
    await expectError(await app.request('/v1/webhooks/nope/deliveries', bearer(a.testKey)), 404, 'not_found');
    await expectError(
      await app.request('/v1/webhooks/whe_unknown000/deliveries', bearer(a.testKey)),
      404,
      'not_found',
    );
    await expectError(
      await app.request(`/v1/webhooks/${id}/deliveries`, bearer(b.testKey)),
      404,
      'not_found',
    );
  });

  it('refuses every wrong credential with 401 unauthorized', async () => {
    const org = await createTestOrganisation();
    const { id } = await createEndpoint(app, org.testKey);
    await expectWrongCredentialsRefused((headers) =>
      app.request(`/v1/webhooks/${id}/deliveries`, { headers }),
    );
  });
});
