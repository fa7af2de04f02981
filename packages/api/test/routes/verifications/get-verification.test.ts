import { describe, expect, it } from 'vitest';
import {
  bearer,
  createTestOrganisation,
  expectError,
  expectWrongCredentialsRefused,
  seedVerification,
  testApp,
} from '../../support.ts';

describe('GET /v1/verifications/{id} (getVerification)', () => {
  const app = testApp();

  it('reads a verification of the organisation, exactly as it was saved', async () => {
    const org = await createTestOrganisation();
    const saved = await seedVerification(org, 'test');
    const res = await app.request(`/v1/verifications/${saved.id}`, bearer(org.testKey));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(saved);
  });

  it('404 for an id that is not a verification id', async () => {
    const org = await createTestOrganisation();
    const message = await expectError(
      await app.request('/v1/verifications/not-an-id', bearer(org.testKey)),
      404,
      'not_found',
    );
    expect(message).toContain('id');
  });

  it("404 for an unknown id, another organisation's and the other mode's", async () => {
    const org = await createTestOrganisation();
    const saved = await seedVerification(org, 'test');
    const stranger = await createTestOrganisation();
    await expectError(
      await app.request(`/v1/verifications/${saved.id}`, bearer(stranger.testKey)),
      404,
      'not_found',
    );
    await expectError(
      await app.request(`/v1/verifications/${saved.id}`, bearer(org.liveKey)),
      404,
      'not_found',
    );
    await expectError(
      await app.request('/v1/verifications/vrf_doesnotexist0000', bearer(org.testKey)),
      404,
      'not_found',
    );
  });

  it('refuses every wrong credential with 401 unauthorized', async () => {
    const org = await createTestOrganisation();
    const saved = await seedVerification(org, 'test');
    await expectWrongCredentialsRefused((headers) =>
      app.request(`/v1/verifications/${saved.id}`, { headers }),
    );
  });
});
