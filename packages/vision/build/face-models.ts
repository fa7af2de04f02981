import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  cachedModelPath,
  FACE_MODELS,
  type FaceModelName,
  SERVED_MODELS,
  sourceModelPath,
} from '../src/faces/models.ts';
import { buildFaceRecognitionNet, readFaceApiWeights } from './convert/face-recognition-net.ts';
import { convertTfjsModel } from './convert/index.ts';
import { encodeModel } from './convert/onnx-proto.ts';

/**
 * Build-time conversion of the face models into the model cache, where the service's run-time
 * code (src/faces/models.ts) finds them by the same file name. The converter lives here, out of
 * src/, so the service never carries it.
 */

/** ONNX bytes of a model: converted from its TF.js graph, or built from face-api's weights. */
export async function buildOnnxModel(name: FaceModelName): Promise<Uint8Array> {
  if (name === FACE_MODELS.resnet) {
    return encodeModel(buildFaceRecognitionNet(await readFaceApiWeights(sourceModelPath(name))));
  }
  return convertTfjsModel(sourceModelPath(name));
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

/** Converts every face model the service runs (idempotent: a second run only hashes sources). */
export async function prepareFaceModels(): Promise<void> {
  await Promise.all(SERVED_MODELS.map((name) => prepareModel(name)));
}
