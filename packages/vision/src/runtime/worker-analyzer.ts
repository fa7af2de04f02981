import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  type AnalysisOutcome,
  type AnalysisRequest,
  analysisConcurrency,
  type PrecheckRequest,
} from '@idv/core';
import type { WorkerReply, WorkerResults, WorkerTask } from './worker-messages.ts';

/**
 * The analyzer on a pool of worker threads, one per analysis run at once (analysisConcurrency:
 * one per two cores), each with its own warm models.
 *
 * Why: onnxruntime-node runs `session.run` synchronously on the calling thread (its promise is
 * only deferred by setImmediate). In process, an analysis therefore holds the HTTP thread for
 * its whole 2.5 s: two analyses never overlap (the queue's "one per core" gave nothing, four
 * clients got 0.40/s, no better than one) and reads stall behind it (issue 17). Here every
 * analysis runs on a worker thread: the HTTP thread only parses, stores and judges.
 *
 * The pool runs one task per worker and keeps the rest in arrival order (the API's bounded
 * queue admits at most one analysis per core, so analyses rarely wait here; the session
 * helpers, short, go ahead of waiting analyses). A worker that crashes, or whose task passes
 * `taskTimeoutMs`, is terminated, its task fails with AnalysisWorkerError (the API answers 503
 * `analysis_unavailable`) and a fresh worker takes its place. Images cross as copies in
 * transferred buffers: one copy, and the caller's bytes stay intact.
 */

export interface WorkerAnalyzerOptions {
  /** Worker threads. Default: analysisConcurrency() (env ANALYSIS_CONCURRENCY, else one per two cores), as the API's queue. */
  workers?: number;
  /** A task running longer is abandoned and its worker replaced (frees the core). Default 60 s. */
  taskTimeoutMs?: number;
  /**
   * Env of the workers over the process's own (e.g. IDV_ONNX_SPIN, ONNX_THREADS): lets a
   * benchmark compare two settings side by side in one process. ANALYSIS_CONCURRENCY here also
   * sizes the pool when `workers` is not given.
   */
  env?: Record<string, string>;
}

export type AnalysisWorkerFailure = 'crashed' | 'timeout' | 'unavailable';

/** A task lost to its worker (crash, time-out) or refused because no worker can start. */
export class AnalysisWorkerError extends Error {
  constructor(
    readonly reason: AnalysisWorkerFailure,
    message: string,
  ) {
    super(message);
    this.name = 'AnalysisWorkerError';
  }
}

export interface WorkerAnalyzer {
  analyze(request: AnalysisRequest): Promise<AnalysisOutcome>;
  precheck(request: PrecheckRequest): Promise<WorkerResults['precheck']>;
  readMrz(bytes: Uint8Array): Promise<WorkerResults['readMrz']>;
  /** Resolves once every worker has loaded its models (rejects if none can start). */
  ready(): Promise<void>;
  /** Stops every worker; pending and later tasks fail. */
  close(): Promise<void>;
  /** The worker threads now running, for diagnostics and tests (a terminated one is replaced). */
  readonly threads: readonly Worker[];
  /** Workers started in all (replacements included), tasks running and waiting. */
  readonly stats: { started: number; running: number; waiting: number };
}

const DEFAULT_TASK_TIMEOUT_MS = 60_000;
/** Consecutive workers that may fail to start before the pool gives up (bad install, no models). */
const MAX_FAILED_STARTS = 3;

type TaskBody = WorkerTask extends infer T ? (T extends WorkerTask ? Omit<T, 'id'> : never) : never;

interface Pending {
  id: number;
  body: TaskBody;
  transfer: ArrayBuffer[];
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  task: Pending | null;
  timer: NodeJS.Timeout | null;
}

export function createWorkerAnalyzer(options: WorkerAnalyzerOptions = {}): WorkerAnalyzer {
  const env = { ...process.env, ...options.env };
  const size = Math.max(1, Math.floor(options.workers ?? analysisConcurrency(env)));
  const taskTimeoutMs = options.taskTimeoutMs ?? DEFAULT_TASK_TIMEOUT_MS;
  const slots = new Set<Slot>();
  const waiting: Pending[] = [];
  let nextId = 1;
  let started = 0;
  let failedStarts = 0;
  let closed = false;
  let readyWaiters: { resolve: () => void; reject: (e: Error) => void }[] = [];

  const fail = (task: Pending, reason: AnalysisWorkerFailure, message: string) =>
    task.reject(new AnalysisWorkerError(reason, message));

  function spawn(): void {
    started++;
    const worker = new Worker(workerEntry(), {
      eval: true,
      execArgv: [],
      // The pool's size, whatever set it: each worker's model sessions share the cores out by it
      // (analysisThreads: 2 cores, 2 workers × 1 thread or 1 worker × 2 threads).
      env: { ...env, ANALYSIS_CONCURRENCY: String(size) },
      // A worker's stdout/stderr goes to the process's own (model warnings, crash traces).
      stdout: false,
      stderr: false,
    });
    const slot: Slot = { worker, ready: false, task: null, timer: null };
    slots.add(slot);
    worker.on('message', (reply: WorkerReply) => {
      if ('ready' in reply) {
        slot.ready = true;
        failedStarts = 0;
        settleReady();
        dispatch();
        return;
      }
      const task = slot.task;
      if (!task || task.id !== reply.id) return;
      finish(slot);
      if (reply.ok) task.resolve(reply.value);
      else task.reject(Object.assign(new Error(reply.error.message), reply.error));
      dispatch();
    });
    // 'error' (an uncaught exception in the worker) is followed by 'exit'; both lead here once.
    worker.on('error', (error) => lose(slot, `analysis worker failed: ${error.message}`));
    worker.on('exit', (code) => lose(slot, `analysis worker exited (code ${code})`));
  }

  /** A worker is gone: its task fails, and another worker starts unless the pool is closed. */
  function lose(slot: Slot, message: string): void {
    if (!slots.delete(slot)) return;
    const task = slot.task;
    const wasReady = slot.ready;
    finish(slot);
    if (task) fail(task, 'crashed', message);
    if (closed) return;
    if (!wasReady && ++failedStarts >= MAX_FAILED_STARTS) {
      // Every start fails: answer at once instead of holding requests for a worker that never comes.
      for (const t of waiting.splice(0)) fail(t, 'unavailable', message);
      for (const w of readyWaiters.splice(0)) w.reject(new AnalysisWorkerError('unavailable', message));
      if (slots.size === 0) return;
    }
    spawn();
  }

  function finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.task = null;
  }

  function dispatch(): void {
    for (const slot of slots) {
      if (!slot.ready || slot.task) continue;
      const task = waiting.shift();
      if (!task) return;
      slot.task = task;
      slot.timer = setTimeout(() => {
        // The thread cannot be interrupted inside a model run: it is terminated, which frees
        // its core, and replaced (lose() on its exit).
        // Out of the pool first, so that no task goes to it meanwhile; its exit is then ignored.
        slots.delete(slot);
        finish(slot);
        fail(task, 'timeout', `analysis took more than ${taskTimeoutMs} ms`);
        void slot.worker.terminate();
        if (!closed) spawn();
      }, taskTimeoutMs);
      slot.worker.postMessage({ ...task.body, id: task.id }, task.transfer);
    }
  }

  function submit<K extends keyof WorkerResults>(
    body: TaskBody & { task: K },
    transfer: ArrayBuffer[],
    urgent = false,
  ): Promise<WorkerResults[K]> {
    if (closed)
      return Promise.reject(new AnalysisWorkerError('unavailable', 'the analysis workers are stopped'));
    if (slots.size === 0 && failedStarts >= MAX_FAILED_STARTS) {
      // Try again from scratch (the cause may have been transient), but answer this one now.
      failedStarts = 0;
      for (let i = 0; i < size; i++) spawn();
      return Promise.reject(new AnalysisWorkerError('unavailable', 'no analysis worker could start'));
    }
    return new Promise<WorkerResults[K]>((resolve, reject) => {
      const task: Pending = {
        id: nextId++,
        body,
        transfer,
        resolve: resolve as (v: unknown) => void,
        reject,
      };
      if (urgent) waiting.unshift(task);
      else waiting.push(task);
      dispatch();
    });
  }

  function settleReady(): void {
    if ([...slots].every((s) => s.ready)) for (const w of readyWaiters.splice(0)) w.resolve();
  }

  for (let i = 0; i < size; i++) spawn();

  return {
    analyze(request) {
      const transfer: ArrayBuffer[] = [];
      const images: Record<string, { bytes: Uint8Array }> = {};
      for (const [kind, image] of Object.entries(request.images)) {
        if (!image) continue;
        const bytes = ownedCopy(image.bytes);
        transfer.push(bytes.buffer as ArrayBuffer);
        images[kind] = { bytes };
      }
      return submit({ task: 'analyze', request: { images, documentType: request.documentType } }, transfer);
    },
    precheck(request) {
      const bytes = ownedCopy(request.bytes);
      return submit(
        { task: 'precheck', request: { ...request, bytes } },
        [bytes.buffer as ArrayBuffer],
        true,
      );
    },
    readMrz(bytes) {
      const copy = ownedCopy(bytes);
      return submit({ task: 'readMrz', bytes: copy }, [copy.buffer as ArrayBuffer], true);
    },
    ready() {
      if ([...slots].every((s) => s.ready) && slots.size > 0) return Promise.resolve();
      if (slots.size === 0)
        return Promise.reject(new AnalysisWorkerError('unavailable', 'no analysis worker'));
      return new Promise((resolve, reject) => readyWaiters.push({ resolve, reject }));
    },
    async close() {
      closed = true;
      for (const t of waiting.splice(0)) fail(t, 'unavailable', 'the analysis workers are stopped');
      const all = [...slots];
      for (const slot of all) {
        if (slot.task) fail(slot.task, 'unavailable', 'the analysis workers are stopped');
        finish(slot);
      }
      readyWaiters = [];
      await Promise.all(all.map((s) => s.worker.terminate()));
      slots.clear();
    },
    get threads() {
      return [...slots].map((s) => s.worker);
    },
    get stats() {
      let running = 0;
      for (const s of slots) if (s.task) running++;
      return { started, running, waiting: waiting.length };
    },
  };
}

/** The bytes in a buffer of their own, exactly their size: transferable without touching the caller's. */
function ownedCopy(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(bytes);
}

/**
 * The worker's start-up code. It runs the TypeScript sources as the rest of the service does,
 * through tsx, whatever started this process (`tsx`, vitest): Node 20 does not apply a
 * `--import` loader to a worker's entry file, so the worker registers tsx itself, then imports
 * its module. A compiled worker (.js) is imported directly.
 */
function workerEntry(): string {
  const entry = new URL(`./analysis-worker.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url)
    .href;
  if (!entry.endsWith('.ts')) return `import(${JSON.stringify(entry)});`;
  // tsx's ESM API (package.json is exported; `require.resolve('tsx/esm/api')` would give the CJS one).
  const tsxDir = dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const tsx = pathToFileURL(join(tsxDir, 'dist/esm/api/index.mjs')).href;
  return `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
}
