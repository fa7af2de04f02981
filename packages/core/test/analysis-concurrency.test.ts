import { describe, expect, it } from 'vitest';
import { analysisConcurrency, analysisThreads } from '../src/analysis-concurrency.ts';

describe('analysis concurrency and threads', () => {
  it('runs one analysis per two cores with two threads each by default', () => {
    expect(analysisConcurrency({}, 2)).toBe(1);
    expect(analysisThreads({}, 2)).toBe(2);
    expect(analysisConcurrency({}, 8)).toBe(4);
    expect(analysisThreads({}, 8)).toBe(2);
    // An odd core count: the last core is shared out as an extra thread.
    expect(analysisConcurrency({}, 3)).toBe(1);
    expect(analysisThreads({}, 3)).toBe(3);
  });

  it('gives the cores to the fewer analyses ANALYSIS_CONCURRENCY allows', () => {
    expect(analysisConcurrency({ ANALYSIS_CONCURRENCY: '1' }, 2)).toBe(1);
    expect(analysisThreads({ ANALYSIS_CONCURRENCY: '1' }, 2)).toBe(2);
    expect(analysisThreads({ ANALYSIS_CONCURRENCY: '2' }, 8)).toBe(4);
    // More analyses than cores: never fewer than one thread.
    expect(analysisThreads({ ANALYSIS_CONCURRENCY: '4' }, 2)).toBe(1);
    // The pool's own size, when it was given one explicitly.
    expect(analysisThreads({}, 6, 3)).toBe(2);
  });

  it('lets ONNX_THREADS choose the threads whatever the concurrency', () => {
    expect(analysisThreads({ ONNX_THREADS: '3', ANALYSIS_CONCURRENCY: '2' }, 2)).toBe(3);
  });

  it('ignores values that are not positive integers', () => {
    for (const v of ['', ' ', '0', '-1', '1.5', 'two']) {
      expect(analysisConcurrency({ ANALYSIS_CONCURRENCY: v }, 4)).toBe(2);
      expect(analysisThreads({ ONNX_THREADS: v, ANALYSIS_CONCURRENCY: '1' }, 2)).toBe(2);
    }
  });

  it('has at least one analysis on a machine reporting no cores', () => {
    expect(analysisConcurrency({}, 0)).toBe(1);
    expect(analysisThreads({}, 0)).toBe(1);
  });
});
