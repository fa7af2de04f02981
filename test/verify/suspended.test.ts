import { describe, expect, it } from 'vitest';
import { documentPhoto } from '../support/documents.ts';
import { bearer, createTestOrganisation, testApp, testStore } from '../support/stack.ts';
import { imageForm } from '../support/verify-app.ts';

describe('an organisation suspended by the operator', () => {
  it('gets 402 account_suspended on POST /v1/verify, and reads still work', async () => {
    const org = await createTestOrganisation();
    await testStore().organisations.update(org.orgId, { suspended: true });
    const app = testApp();
    const res = await app.request('/v1/verify', {
      method: 'POST',
      body: imageForm({ front: await documentPhoto('passport') }),
      ...bearer(org.liveKey),
    });
    expect(res.status).toBe(402);
    expect(await res.json()).toEqual({ error: { code: 'account_suspended', message: expect.any(String) } });
    expect((await app.request('/v1/verifications', bearer(org.liveKey))).status).toBe(200);
  });
});
