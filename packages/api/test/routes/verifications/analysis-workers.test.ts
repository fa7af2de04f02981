import { billingMonth } from '@idv/store';
import { createWorkerAnalyzer, type WorkerAnalyzer } from '@idv/vision';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestOrganisation,
  documentPhoto,
  expectError,
  imageForm,
  matchingSelfie,
  testStore,
  verifyApp,
} from '../../support.ts';

/**
 * POST /v1/verify with the analysis on worker threads (as `npm start` runs it), against the real
 * stack and the real models in the worker: a verification completes; a worker lost in the middle
 * of an analysis answers 503 analysis_unavailable, bills nothing, and the replaced worker serves
 * the next request.
 */
describe('POST /v1/verify on the analysis worker pool', () => {
  let workers: WorkerAnalyzer;
  let passport: Uint8Array;
  let selfie: Uint8Array;

  beforeAll(async () => {
    workers = createWorkerAnalyzer({ workers: 1, taskTimeoutMs: 600_000 });
    passport = await documentPhoto('passport');
    selfie = await matchingSelfie();
    await workers.ready();
  }, 300_000);

  afterAll(() => workers?.close());

  it('answers 503 analysis_unavailable when the worker dies mid-analysis, then verifies on its replacement', async () => {
    const app = await verifyApp({ analyzer: workers, analysisTimeoutMs: 600_000 });
    const org = await createTestOrganisation();
    const post = () =>
      app.request('/v1/verify', {
        method: 'POST',
        body: imageForm({ front: passport, selfie }),
        ...bearer(org.liveKey),
      });

    const lost = post();
    for (let i = 0; i < 3000 && workers.stats.running === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(workers.stats.running).toBe(1);
    await workers.threads[0]!.terminate();
    await expectError(await lost, 503, 'analysis_unavailable');
    expect((await testStore().usage.get(org.orgId, billingMonth(new Date()))).live_verifications).toBe(0);

    const res = await post();
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.verdict).toBe('verified');
    expect(body.timings.reading_ms).toBeGreaterThan(0);
    expect((await testStore().usage.get(org.orgId, billingMonth(new Date()))).live_verifications).toBe(1);
  }, 900_000);
});
