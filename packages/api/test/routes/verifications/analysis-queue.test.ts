import { billingMonth } from '@idv/store';
import { analyzeImages } from '@idv/vision';
import { beforeAll, describe, expect, it } from 'vitest';
import { AnalysisQueue } from '../../../src/services/analysis-queue.ts';
import {
  bearer,
  createTestOrganisation,
  documentPhoto,
  expectError,
  imageForm,
  matchingSelfie,
  storedImageKeys,
  testStore,
  verifyApp,
} from '../../support.ts';

/**
 * The bounded analysis queue against the real stack and the real models: one analysis at a
 * time, one waiting; a third request is refused with 503 and leaves nothing behind, while the
 * two admitted ones complete. The analyses are held at their start by a gate (then run for real)
 * so that the three requests are in flight together whatever the machine's speed.
 */
describe('POST /v1/verify behind a full analysis queue', () => {
  let passport: Uint8Array;
  let selfie: Uint8Array;

  beforeAll(async () => {
    passport = await documentPhoto('passport');
    selfie = await matchingSelfie();
  });

  it('answers 503 analysis_unavailable with retry-after beyond the depth, writes nothing for it, and completes the queued ones', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const queue = new AnalysisQueue({ concurrency: 1, depth: 1 });
    const app = await verifyApp({
      analysisQueue: queue,
      // The two admitted analyses run one after the other behind the gate: on a loaded machine
      // that can exceed the service's 45 s, which is not what this test is about.
      analysisTimeoutMs: 600_000,
      analyzer: {
        analyze: async (request) => {
          await gate;
          return analyzeImages(request);
        },
      },
    });
    const org = await createTestOrganisation();
    const post = (key: string, headers: Record<string, string> = {}) =>
      app.request('/v1/verify', {
        method: 'POST',
        body: imageForm({ front: passport, selfie }),
        ...bearer(key, headers),
      });

    const admitted = [post(org.liveKey), post(org.liveKey)];
    for (let i = 0; i < 500 && queue.stats.admitted < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(queue.stats.admitted).toBe(2);

    const refused = await post(org.liveKey, { 'idempotency-key': 'full-queue' });
    await expectError(refused, 503, 'analysis_unavailable');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Nothing of the refused request exists: no verification, no billing, and only the two
    // admitted requests' images (2 × front + selfie) are stored.
    expect((await testStore().usage.get(org.orgId, billingMonth(new Date()))).live_verifications).toBe(0);
    const before = await (await app.request('/v1/verifications', bearer(org.liveKey))).json();
    expect(before.data).toEqual([]);
    await expect.poll(() => storedImageKeys(org.orgId)).toHaveLength(4);

    open();
    const results = await Promise.all(admitted);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const bodies = await Promise.all(results.map((r) => r.json()));
    expect(bodies.map((b) => b.verdict)).toEqual(['verified', 'verified']);
    expect((await testStore().usage.get(org.orgId, billingMonth(new Date()))).live_verifications).toBe(2);
    const after = await (await app.request('/v1/verifications', bearer(org.liveKey))).json();
    expect(after.data.map((v: { id: string }) => v.id).sort()).toEqual(bodies.map((b) => b.id).sort());
    const keys = await storedImageKeys(org.orgId);
    expect(keys).toHaveLength(4);
    for (const key of keys) expect(bodies.some((b) => key.includes(b.id))).toBe(true);
    expect(queue.stats).toEqual({ running: 0, admitted: 0 });

    // The refused request's Idempotency-Key was freed: the same request now goes through.
    const retried = await post(org.liveKey, { 'idempotency-key': 'full-queue' });
    expect(retried.status).toBe(200);
  }, 600_000);
});
