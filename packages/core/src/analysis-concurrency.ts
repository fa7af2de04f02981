import { availableParallelism } from 'node:os';

/**
 * How many analyses run at once in one process, and how many intra-op threads each ONNX session
 * gets: one place, so that the API's bounded queue, the worker pool and the model sessions agree.
 *
 * The models are CPU-bound and the cores are the limit: `concurrency × threads` is kept at the
 * core count, so that neither cores sit idle nor threads fight over them. Env
 * `ANALYSIS_CONCURRENCY` sets the analyses at once (the analyzer Lambda sets 1: an invocation
 * handles one request), else one per THREADS_PER_ANALYSIS cores; `ONNX_THREADS` overrides the
 * threads per session (benchmarks), else the cores are shared out between the analyses.
 */

/**
 * Cores given to each analysis by default. Measured on 2 cores (docs/benchmarks.md, issue 17,
 * 2026-11-26, idle machine): one analysis with 2 threads per session against two with 1 thread
 * each answers one passport + selfie in 1.40 s instead of 2.12 s and holds 840 MB instead of
 * 1,306 MB, for 0.85× the throughput under four clients (0.79 against 0.93 verifications/s). A
 * caller waits for one verification, and memory sizes the machine: latency and memory win.
 * Beyond 2 threads a session's speed-up flattens (small convolutions, sequential LSTMs), so
 * larger machines run more analyses of 2 threads each rather than one of every core.
 */
export const THREADS_PER_ANALYSIS = 2;

type Env = Readonly<Record<string, string | undefined>>;

/** Analyses run at once: env ANALYSIS_CONCURRENCY, else one per THREADS_PER_ANALYSIS cores. */
export function analysisConcurrency(env: Env = process.env, cores = availableParallelism()): number {
  return positiveInt(env.ANALYSIS_CONCURRENCY) ?? Math.max(1, Math.floor(cores / THREADS_PER_ANALYSIS));
}

/**
 * Intra-op threads of each ONNX session: env ONNX_THREADS, else the cores shared out between the
 * analyses that run at once (2 cores: 1 analysis × 2 threads by default, 2 × 1 with
 * ANALYSIS_CONCURRENCY=2).
 */
export function analysisThreads(
  env: Env = process.env,
  cores = availableParallelism(),
  concurrency = analysisConcurrency(env, cores),
): number {
  return positiveInt(env.ONNX_THREADS) ?? Math.max(1, Math.floor(cores / Math.max(1, concurrency)));
}

/** A positive integer from an env value; undefined when unset, empty, zero or not an integer. */
function positiveInt(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}
