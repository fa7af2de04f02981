import { modelCacheDir } from '../src/faces/models.ts';
import { prepareFaceModels } from './face-models.ts';

/**
 * `npm run models`: converts the face models (TF.js graph → ONNX, and the face-api ResNet built
 * from its weights) into the model cache. Run by `npm start` and `npm test` before they begin
 * (prestart/pretest) and by the analyzer's container build; idempotent and safe to run from
 * several processes at once. The converted `.onnx` files are never committed.
 */
const t0 = performance.now();
await prepareFaceModels();
console.log(`face models ready in ${modelCacheDir()} (${Math.round(performance.now() - t0)} ms)`);
