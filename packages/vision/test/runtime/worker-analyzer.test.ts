import type { AnalysisOutcome, AnalysisRequest } from '@idv/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentPhoto, matchingSelfie } from '../../../../test/support/documents.ts';
import { analyzeImages } from '../../src/analyzer.ts';
import {
  AnalysisWorkerError,
  createWorkerAnalyzer,
  type WorkerAnalyzer,
} from '../../src/runtime/worker-analyzer.ts';
import { readMrzLines } from '../../src/session-helpers.ts';

/**
 * The analyzer on worker threads, with the real models in each worker: the same observations as
 * in process, the caller's bytes untouched, and a worker lost to a crash or a time-out fails
 * its task and is replaced by one that works.
 */

const image = (bytes: Uint8Array) => ({ bytes, contentType: 'image/jpeg', storageKey: 'unused' });

/** Observations without the timings, which differ from run to run. */
function withoutTimings(outcome: AnalysisOutcome) {
  if (outcome.kind !== 'observations') return outcome;
  const { timings: _timings, ...rest } = outcome.observations;
  return rest;
}

describe('createWorkerAnalyzer', () => {
  let pool: WorkerAnalyzer;
  let request: AnalysisRequest;

  beforeAll(async () => {
    pool = createWorkerAnalyzer({ workers: 1, taskTimeoutMs: 600_000 });
    request = {
      images: { front: image(await documentPhoto('passport')), selfie: image(await matchingSelfie()) },
    };
    await pool.ready();
  }, 300_000);

  afterAll(() => pool?.close());

  it('answers what the in-process analyzer answers and leaves the caller its bytes', async () => {
    const sizeBefore = request.images.front!.bytes.byteLength;
    const [inWorker, inProcess] = [await pool.analyze(request), await analyzeImages(request)];
    expect(inWorker.kind).toBe('observations');
    expect(withoutTimings(inWorker)).toEqual(withoutTimings(inProcess));
    if (inWorker.kind === 'observations') expect(inWorker.observations.timings.reading_ms).toBeGreaterThan(0);
    // The images crossed as copies: the request can still be used (stored, hashed, re-sent).
    expect(request.images.front!.bytes.byteLength).toBe(sizeBefore);
  }, 300_000);

  it('passes a refusal and the session helpers through', async () => {
    const refused = await pool.analyze({
      images: { front: image(new TextEncoder().encode('not an image')) },
    });
    expect(refused).toMatchObject({ kind: 'refused', code: 'invalid_image', image: 'front' });
    const passport = request.images.front!.bytes;
    expect(await pool.readMrz(passport)).toEqual(await readMrzLines(passport));
    const precheck = await pool.precheck({ bytes: passport, documentType: 'passport', side: 'front' });
    expect(precheck).toHaveProperty('issue');
  }, 300_000);

  it('fails the task of a worker that dies and replaces the worker', async () => {
    const startedBefore = pool.stats.started;
    const running = pool.analyze(request);
    for (let i = 0; i < 200 && pool.stats.running === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(pool.stats.running).toBe(1);
    await pool.threads[0]!.terminate();
    const error = await running.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AnalysisWorkerError);
    expect((error as AnalysisWorkerError).reason).toBe('crashed');
    expect(pool.stats.started).toBe(startedBefore + 1);
    await pool.ready();
    expect((await pool.analyze(request)).kind).toBe('observations');
  }, 600_000);

  it('abandons a task past its time-out, frees the worker and replaces it', async () => {
    const quick = createWorkerAnalyzer({ workers: 1, taskTimeoutMs: 1 });
    try {
      await quick.ready();
      const error = await quick.analyze(request).then(
        () => null,
        (e: unknown) => e,
      );
      expect((error as AnalysisWorkerError).reason).toBe('timeout');
      expect(quick.stats).toMatchObject({ started: 2, running: 0 });
      await quick.ready();
      expect(quick.threads).toHaveLength(1);
    } finally {
      await quick.close();
    }
  }, 600_000);
});
