import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { analysisThreads } from '@idv/core';
import { loadModel, ort } from './onnx.ts';
import { profiled } from './profile.ts';

/**
 * A model runner independent of the ONNX runtime package. The OCR code only sees
 * `run(input, dims) → {data, dims}`, so the same pre/post-processing works on
 * onnxruntime-web (wasm, the default everywhere) and onnxruntime-node (native, optional).
 *
 * Selection: env `IDV_ONNX_BACKEND=node|web|auto` (default `auto`: onnxruntime-node when it is
 * installed, else onnxruntime-web). The benchmark (docs/benchmarks.md, "Reading") measured the
 * native runtime 3–4× faster on the OCR models on this 2-core machine, which is what brings a
 * document read under the 800 ms target; wasm stays the fallback everywhere (and the browser's).
 * `node` falls back to `web` with a warning when the optional package or its binary is missing.
 */

export type BackendName = 'web' | 'node';
export type BackendChoice = BackendName | 'auto';

export interface ModelOutput {
  data: Float32Array;
  dims: readonly number[];
}

export interface ModelRunner {
  readonly backend: BackendName;
  /** The model's first output. */
  run(input: Float32Array, dims: number[]): Promise<ModelOutput>;
  /** Every output by name (the face models have several: scores and boxes, or descriptor and age). */
  runAll(input: Float32Array, dims: number[]): Promise<Record<string, ModelOutput>>;
}

export function configuredBackend(): BackendChoice {
  const v = process.env.IDV_ONNX_BACKEND;
  return v === 'node' || v === 'web' ? v : 'auto';
}

// biome-ignore lint/suspicious/noExplicitAny: the optional native package has no types when absent
type NodeOrt = any;
let nodeOrt: Promise<NodeOrt | null> | null = null;

/** Loads onnxruntime-node dynamically; null when it is not installed (its absence never breaks anything). */
function loadNodeOrt(): Promise<NodeOrt | null> {
  if (!nodeOrt) {
    const name = 'onnxruntime-node';
    nodeOrt = import(/* @vite-ignore */ name).then(
      (m) => m.default ?? m,
      () => null,
    );
  }
  return nodeOrt;
}

export async function nodeBackendAvailable(): Promise<boolean> {
  const m = await loadNodeOrt();
  if (!m) return false;
  try {
    // The JS package can be present without its native binary (install skipped offline).
    createRequire(import.meta.url).resolve('onnxruntime-node');
    return typeof m.InferenceSession?.create === 'function';
  } catch {
    return false;
  }
}

const runners = new Map<string, Promise<ModelRunner>>();

/** Rewrites a model's bytes before its session is created (a graph edit such as fuseHardSwish). */
export type ModelPreparation = (bytes: Uint8Array) => Uint8Array;

const asIs: ModelPreparation = (bytes) => bytes;

/**
 * Returns a runner for the model file at `path`, created once per process, backend and path.
 * `key` names the model (e.g. 'ocr-det'); `prepare` edits the file's bytes first. The path is part
 * of the cache's key so that an evaluation comparing two weight files in one process (e.g.
 * IDV_MRZ_MODEL changed between runs) never silently gets the first file's session again.
 */
export function modelRunner(
  key: string,
  path: string,
  backend: BackendChoice = configuredBackend(),
  prepare: ModelPreparation = asIs,
): Promise<ModelRunner> {
  const id = `${backend}:${key}@${path}`;
  let r = runners.get(id);
  if (!r) {
    r =
      backend === 'node'
        ? nodeRunner(key, path, prepare)
        : backend === 'web'
          ? webRunner(key, path, prepare)
          : nodeBackendAvailable().then((ok) =>
              ok ? nodeRunner(key, path, prepare) : webRunner(key, path, prepare),
            );
    r.catch(() => runners.delete(id));
    runners.set(id, r);
  }
  return r;
}

async function webRunner(key: string, path: string, prepare: ModelPreparation): Promise<ModelRunner> {
  const session = await loadModel(`${key}@${path}`, async () =>
    prepare(new Uint8Array(await readFile(path))),
  );
  const inputName = session.inputNames[0]!;
  const runAll = async (input: Float32Array, dims: number[]) => {
    const out = await profiled('model', key, dims.join('x'), () =>
      session.run({ [inputName]: new ort.Tensor('float32', input, dims) }),
    );
    return Object.fromEntries(
      Object.entries(out).map(([name, t]) => [name, { data: t.data as Float32Array, dims: t.dims }]),
    );
  };
  return {
    backend: 'web',
    runAll,
    run: async (input, dims) => (await runAll(input, dims))[session.outputNames[0]!]!,
  };
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The onnxruntime-node session options, the same for every model. Threads: analysisThreads()
 * (the cores shared out between the analyses that run at once, ONNX_THREADS to override).
 * The rest are switches kept to measure memory and CPU (issue 17, docs/benchmarks.md).
 */
export function nodeSessionOptions(env: Env = process.env, threads = analysisThreads(env)) {
  return {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    // onnxruntime's memory pattern is off (IDV_ONNX_PATTERN=1 puts it back): it planned one block
    // per input shape seen, from the session's arena, which grew to the largest in power-of-two
    // steps and kept it. Without it the arena hands out tensors one by one and reuses them: about
    // 100 MB less resident in the verify bench, for the same CPU (0.985× interleaved on 40
    // synthetic documents) and the same observations (docs/decisions.md, "Memory (issue 17)").
    // The arena itself stays (IDV_ONNX_ARENA=0 drops it, and the pattern with it): 130-150 MB
    // less again, but 4 % more CPU per analysis, the tensors then coming from malloc each run.
    enableCpuMemArena: env.IDV_ONNX_ARENA !== '0',
    enableMemPattern: env.IDV_ONNX_ARENA !== '0' && env.IDV_ONNX_PATTERN === '1',
    extra: {
      session: {
        // With several threads per session, idle ones spin for a while waiting for work by
        // default: CPU burnt that the other analysis, the face models beside the reading, or
        // the HTTP thread need on 2 shared cores. They sleep instead (IDV_ONNX_SPIN=1 to spin).
        intra_op: { allow_spinning: env.IDV_ONNX_SPIN === '1' ? '1' : '0' },
        inter_op: { allow_spinning: env.IDV_ONNX_SPIN === '1' ? '1' : '0' },
        // Weights pre-packed for the matrix kernels: faster runs for a copy of the weights kept
        // in memory (IDV_ONNX_PREPACK=0 drops it, to measure that copy).
        disable_prepacking: env.IDV_ONNX_PREPACK === '0' ? '1' : '0',
      },
    },
  };
}

async function nodeRunner(key: string, path: string, prepare: ModelPreparation): Promise<ModelRunner> {
  const m = (await nodeBackendAvailable()) ? await loadNodeOrt() : null;
  if (!m) {
    console.warn(`onnxruntime-node is not available; ${key} runs on onnxruntime-web`);
    return webRunner(key, path, prepare);
  }
  const session = await m.InferenceSession.create(
    prepare(new Uint8Array(await readFile(path))),
    nodeSessionOptions(),
  );
  const inputName = session.inputNames[0] as string;
  const runAll = async (input: Float32Array, dims: number[]): Promise<Record<string, ModelOutput>> => {
    const out = await profiled<Record<string, NodeOrt>>('model', key, dims.join('x'), () =>
      session.run({ [inputName]: new m.Tensor('float32', input, dims) }),
    );
    return Object.fromEntries(
      Object.entries(out).map(([name, t]: [string, NodeOrt]) => [
        name,
        { data: t.data as Float32Array, dims: t.dims as number[] },
      ]),
    );
  };
  return {
    backend: 'node',
    runAll,
    run: async (input, dims) => (await runAll(input, dims))[session.outputNames[0] as string]!,
  };
}
