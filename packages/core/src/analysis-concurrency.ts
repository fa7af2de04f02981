import { availableParallelism } from 'node:os';

/**
 * How many analyses run at once in one process, and how many intra-op threads each ONNX session
 * gets: one place, so that the API's bounded queue, the worker pool and the model sessions agree.
 *
 * The models are CPU-bound and the cores are the limit: `concurrency × threads` is kept at the
 * core count, so that neither cores sit idle nor threads fight over them. Env
 * `ANALYSIS_CONCURRENCY` sets the analyses at once (the analyzer Lambda sets 1: an invocation
 * handles one request), else one per core; `ONNX_THREADS` overrides the threads per session
 * (benchmarks), else the cores are shared out between the analyses.
 */

type Env = Readonly<Record<string, string | undefined>>;

/** Analyses run at once: env ANALYSIS_CONCURRENCY, else one per core. */
export function analysisConcurrency(env: Env = process.env, cores = availableParallelism()): number {
  return positiveInt(env.ANALYSIS_CONCURRENCY) ?? Math.max(1, Math.floor(cores));
}

/**
 * Intra-op threads of each ONNX session: env ONNX_THREADS, else the cores shared out between the
 * analyses that run at once (2 cores: 2 analyses × 1 thread, or 1 analysis × 2 threads).
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
