import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  auditEntries,
  bearer,
  createTestOrganisation,
  expectError,
  seedVerification,
  testApp,
  testStore,
} from '../../support.ts';

const FRONT = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, ...randomBytes(64)]);

describe('GET /v1/image-content/{token} (getImageContent)', () => {
  const urlSigningKey = randomBytes(32);
  const app = testApp({ urlSigningKey });

  async function issueUrl(options: { purged?: boolean } = {}) {
    const org = await createTestOrganisation();
    const saved = await seedVerification(org, 'live', { front: FRONT });
    const res = await app.request(`/v1/verifications/${saved.id}/images/front`, bearer(org.liveKey));
    const path = new URL((await res.json()).url).pathname;
    if (options.purged) await testStore().images.deleteMany([`images/${org.orgId}/live/${saved.id}/front`]);
    return { org, saved, path };
  }

  it('serves the decrypted image with no credential but the link, and audits the view', async () => {
    const { org, saved, path } = await issueUrl();
    const res = await app.request(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(FRONT))).toBe(true);
    const audit = await auditEntries(org.orgId);
    expect(audit.map((e) => e.action).sort()).toEqual(['image_url_issued', 'image_viewed']);
    expect(audit.find((e) => e.action === 'image_viewed')).toMatchObject({
      actor: org.liveKeyId,
      resource_id: saved.id,
    });
  });

  it('404 for a tampered link or one signed with another key', async () => {
    const { path } = await issueUrl();
    await expectError(await app.request(`${path}x`), 404, 'not_found');
    await expectError(await testApp({ urlSigningKey: randomBytes(32) }).request(path), 404, 'not_found');
  });

  it('410 image_gone once the link has expired or the image is deleted', async () => {
    const { path } = await issueUrl();
    const later = testApp({ urlSigningKey, now: () => new Date(Date.now() + 301_000) });
    await expectError(await later.request(path), 410, 'image_gone');
    const deleted = await issueUrl({ purged: true });
    await expectError(await app.request(deleted.path), 410, 'image_gone');
  });

  it('is limited per IP address like any call without a key', async () => {
    const { path } = await issueUrl();
    const now = () => new Date('2032-03-04T05:06:07Z');
    const limited = testApp({ urlSigningKey, limits: { perIpPerMinute: 1 }, now });
    const statuses = [(await limited.request(path)).status, (await limited.request(path)).status];
    expect(statuses[1]).toBe(429);
  });
});
