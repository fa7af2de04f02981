import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/http/api-error.ts';
import { AnalysisQueue } from '../../src/services/analysis-queue.ts';

/** A promise the test settles by hand. */
function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('AnalysisQueue', () => {
  it('runs at most `concurrency` analyses at once, the others in arrival order', async () => {
    const queue = new AnalysisQueue({ concurrency: 2, depth: 3 });
    const gates = Array.from({ length: 5 }, gate);
    const started: number[] = [];
    let running = 0;
    let peak = 0;
    const done = gates.map((g, i) =>
      queue.admit().run(async () => {
        started.push(i);
        running++;
        peak = Math.max(peak, running);
        await g.promise;
        running--;
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    gates[1]!.open();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    expect(await Promise.all(done)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
    expect(queue.stats).toEqual({ running: 0, admitted: 0 });
  });

  it('refuses beyond its depth with 503 analysis_unavailable and a retry-after, and admits again once a place frees', async () => {
    const queue = new AnalysisQueue({ concurrency: 1, depth: 1 });
    const g = gate();
    const first = queue.admit().run(() => g.promise);
    const second = queue.admit();
    let refusal: unknown;
    try {
      queue.admit();
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(ApiError);
    const e = refusal as ApiError;
    expect(e.status).toBe(503);
    expect(e.code).toBe('analysis_unavailable');
    expect(Number(e.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // A place given back without running (the request failed before its analysis) frees it.
    second.release();
    second.release();
    const third = queue.admit();
    g.open();
    await first;
    expect(await third.run(async () => 'ran')).toBe('ran');
    expect(queue.stats).toEqual({ running: 0, admitted: 0 });
  });

  it('frees the slot when an analysis fails', async () => {
    const queue = new AnalysisQueue({ concurrency: 1, depth: 0 });
    await expect(queue.admit().run(async () => Promise.reject(new Error('model failed')))).rejects.toThrow(
      'model failed',
    );
    expect(await queue.admit().run(async () => 1)).toBe(1);
  });

  it('reads its size from the environment, and defaults to one analysis per core', () => {
    process.env.ANALYSIS_CONCURRENCY = '3';
    process.env.ANALYSIS_QUEUE_DEPTH = '0';
    try {
      const q = new AnalysisQueue();
      expect([q.concurrency, q.depth]).toEqual([3, 0]);
    } finally {
      delete process.env.ANALYSIS_CONCURRENCY;
      delete process.env.ANALYSIS_QUEUE_DEPTH;
    }
    const q = new AnalysisQueue();
    expect(q.concurrency).toBeGreaterThanOrEqual(1);
    expect(q.depth).toBe(4 * q.concurrency);
  });
});
