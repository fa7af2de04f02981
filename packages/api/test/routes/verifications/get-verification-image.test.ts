import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  auditEntries,
  bearer,
  createTestOrganisation,
  expectError,
  expectWrongCredentialsRefused,
  seedVerification,
  testApp,
} from '../../support.ts';

const FRONT = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...randomBytes(64)]);

describe('GET /v1/verifications/{id}/images/{kind} (getVerificationImage)', () => {
  const app = testApp({ urlSigningKey: randomBytes(32) });

  it('issues a 5-minute URL to a stored live image and records it in the audit journal', async () => {
    const org = await createTestOrganisation();
    const saved = await seedVerification(org, 'live', { front: FRONT });
    const res = await app.request(`/v1/verifications/${saved.id}/images/front`, bearer(org.liveKey));
    expect(res.status).toBe(200);
    const { url, expires_at } = await res.json();
    expect(url).toMatch(/^http:\/\/localhost:8787\/v1\/image-content\/[\w.-]+$/);
    expect(Date.parse(expires_at) - Date.now()).toBeGreaterThan(290_000);
    expect(Date.parse(expires_at) - Date.now()).toBeLessThanOrEqual(300_000);
    expect(await auditEntries(org.orgId)).toEqual([
      expect.objectContaining({ action: 'image_url_issued', actor: org.liveKeyId, resource_id: saved.id }),
    ]);
  });

  it('403 live_only with a test key; 410 image_gone for an image never stored or purged', async () => {
    const org = await createTestOrganisation();
    const saved = await seedVerification(org, 'live', { front: FRONT });
    await expectError(
      await app.request(`/v1/verifications/${saved.id}/images/front`, bearer(org.testKey)),
      403,
      'live_only',
    );
    await expectError(
      await app.request(`/v1/verifications/${saved.id}/images/back`, bearer(org.liveKey)),
      410,
      'image_gone',
    );
    const purged = await seedVerification(org, 'live', { front: FRONT }, { purged: true });
    await expectError(
      await app.request(`/v1/verifications/${purged.id}/images/front`, bearer(org.liveKey)),
      410,
      'image_gone',
    );
  });

  it("404 for an unknown kind and for another organisation's verification", async () => {
    const org = await createTestOrganisation();
    const saved = await seedVerification(org, 'live', { front: FRONT });
    await expectError(
      await app.request(`/v1/verifications/${saved.id}/images/passport`, bearer(org.liveKey)),
      404,
      'not_found',
    );
    const stranger = await createTestOrganisation();
    await expectError(
      await app.request(`/v1/verifications/${saved.id}/images/front`, bearer(stranger.liveKey)),
      404,
      'not_found',
    );
    expect(await auditEntries(org.orgId)).toEqual([]);
  });

  it('refuses every wrong credential with 401 unauthorized', async () => {
    const org = await createTestOrganisation();
    const saved = await seedVerification(org, 'live', { front: FRONT });
    await expectWrongCredentialsRefused((headers) =>
      app.request(`/v1/verifications/${saved.id}/images/front`, { headers }),
    );
  });
});
