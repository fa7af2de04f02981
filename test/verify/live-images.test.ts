import { randomBytes } from 'node:crypto';
import { billingMonth, purgeExpiredImages } from '@idv/store';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentPhoto, matchingSelfie } from '../support/documents.ts';
import { bearer, createTestOrganisation, testApp, testStore } from '../support/stack.ts';
import { imageForm, storedImageKeys, verifyApp } from '../support/verify-app.ts';

describe('live mode: encrypted images, short-lived URLs, retention purge', () => {
  let app: Awaited<ReturnType<typeof verifyApp>>;
  const urlSigningKey = randomBytes(32);
  beforeAll(async () => {
    app = await verifyApp({ urlSigningKey });
  });

  it('keeps images encrypted, serves them through a 5-minute URL with audit, and answers 410 after purge', async () => {
    const org = await createTestOrganisation();
    const front = await documentPhoto('passport');
    const selfie = await matchingSelfie();
    const res = await app.request('/v1/verify', {
      method: 'POST',
      body: imageForm({ front, selfie }),
      ...bearer(org.liveKey),
    });
    expect(res.status).toBe(200);
    const v = await res.json();
    expect(v.mode).toBe('live');

    // Stored, and not in clear: the bucket alone reveals nothing.
    const keys = await storedImageKeys(org.orgId);
    expect(keys.sort()).toEqual([
      `images/${org.orgId}/live/${v.id}/front`,
      `images/${org.orgId}/live/${v.id}/selfie`,
    ]);
    const raw = await testStore().images.getRaw(keys[0]!);
    expect(Buffer.from(raw!).includes(Buffer.from(front.subarray(0, 64)))).toBe(false);
    expect((await testStore().usage.get(org.orgId, billingMonth(new Date()))).live_verifications).toBe(1);

    // Test keys have no image endpoint.
    const testKeyRes = await app.request(`/v1/verifications/${v.id}/images/front`, bearer(org.testKey));
    expect(testKeyRes.status).toBe(403);
    expect((await testKeyRes.json()).error.code).toBe('live_only');
    const never = await app.request(`/v1/verifications/${v.id}/images/back`, bearer(org.liveKey));
    expect(never.status).toBe(410);
    expect((await never.json()).error.code).toBe('image_gone');

    const issued = await app.request(`/v1/verifications/${v.id}/images/front`, bearer(org.liveKey));
    expect(issued.status).toBe(200);
    const { url, expires_at } = await issued.json();
    expect(Date.parse(expires_at) - Date.now()).toBeGreaterThan(290_000);
    expect(Date.parse(expires_at) - Date.now()).toBeLessThanOrEqual(300_000);
    const view = await app.request(new URL(url).pathname);
    expect(view.status).toBe(200);
    expect(view.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await view.arrayBuffer()).equals(Buffer.from(front))).toBe(true);

    // A tampered link is refused.
    expect((await app.request(`${new URL(url).pathname}x`)).status).toBe(404);
    // The same link used after 5 minutes has expired.
    const later = testApp({ urlSigningKey, now: () => new Date(Date.now() + 301_000) });
    const expired = await later.request(new URL(url).pathname);
    expect(expired.status).toBe(410);
    expect((await expired.json()).error.code).toBe('image_gone');

    const audit = await testStore().audit.list(org.orgId, 10);
    if (!audit.ok) throw new Error('the audit list refused its first page');
    expect(audit.page.data.map((e) => e.action).sort()).toEqual(['image_url_issued', 'image_viewed']);

    // Retention ends: the purge deletes the objects and the image is gone.
    const org30 = await testStore().organisations.get(org.orgId);
    const after = new Date(Date.now() + (org30!.retention_days + 1) * 86_400_000);
    const { purged } = await purgeExpiredImages(testStore(), after);
    expect(purged).toBeGreaterThanOrEqual(1);
    expect(await storedImageKeys(org.orgId)).toEqual([]);
    const gone = await app.request(`/v1/verifications/${v.id}/images/front`, bearer(org.liveKey));
    expect(gone.status).toBe(410);
    expect((await app.request(new URL(url).pathname)).status).toBe(410);
  });
});
