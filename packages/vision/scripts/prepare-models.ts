import { modelCacheDir, prepareFaceModels } from '../src/faces/models.ts';

/**
 * Converts the face models (TF.js graph → ONNX) into the model cache. Run at install
 * (`npx tsx packages/vision/scripts/prepare-models.ts`, e.g. from a postinstall step or the container build) or
 * let the service do it at first start: `prepareFaceModels()` is idempotent and safe to run
 * from several processes at once. The converted `.onnx` files are never committed.
 */
const t0 = performance.now();
await prepareFaceModels();
console.log(`face models ready in ${modelCacheDir()} (${Math.round(performance.now() - t0)} ms)`);
