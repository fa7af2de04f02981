import { describe, expect, it } from 'vitest';
import { bearer, createTestOrganisation, expectError, expectWrongCredentialsRefused } from '../../support.ts';
import { createEndpoint, webhookApp } from './support.ts';

describe('DELETE /v1/webhooks/{id} (deleteWebhook)', () => {
  const app = webhookApp();
  const del = (id: string, headers: Record<string, string>) =>
    app.request(`/v1/webhooks/${id}`, { method: 'DELETE', headers });

  it('deletes the endpoint at once; a second delete is 404', async () => {
    const org = await createTestOrganisation();
    const { id } = await createEndpoint(app, org.testKey);
    const res = await del(id, bearer(org.liveKey).headers);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id, deleted: true });
    expect((await (await app.request('/v1/webhooks', bearer(org.testKey))).json()).data).toEqual([]);
    await expectError(await del(id, bearer(org.testKey).headers), 404, 'not_found');
  });

  it("404 for an id that is not an endpoint id and for for another organisation's endpoint", async () => {
    const a = await createTestOrganisation();
    const b = await createTestOrganisation();
    const { id } = await createEndpoint(app, a.testKey);
    await expectError(await del('vrf_abc123', bearer(a.testKey).headers), 404, 'not_found');
    await expectError(await del(id, bearer(b.testKey).headers), 404, 'not_found');
    // Still there for its owner.
    expect((await (await app.request('/v1/webhooks', bearer(a.testKey))).json()).data).toHaveLength(1);
  });

  it('refuses every wrong credential with 401 unauthorized, deleting nothing', async () => {
    const org = await createTestOrganisation();
    const { id } = await createEndpoint(app, org.testKey);
    await expectWrongCredentialsRefused((headers) => del(id, headers));
    expect((await (await app.request('/v1/webhooks', bearer(org.testKey))).json()).data).toHaveLength(1);
  });
});
