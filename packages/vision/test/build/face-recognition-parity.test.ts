import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  buildFaceRecognitionNet,
  FACE_RECOGNITION_INPUT_SIZE,
  FACE_RECOGNITION_OUTPUT,
  readFaceApiWeights,
} from '../../build/convert/face-recognition-net.ts';
import { encodeModel } from '../../build/convert/onnx-proto.ts';
import { FACE_MODELS, sourceModelPath } from '../../src/faces/models.ts';
import { cropResize } from '../../src/image/affine.ts';
import { normalizeImage } from '../../src/image/normalize.ts';
import { loadModel, ort, packageFile } from '../../src/runtime/onnx.ts';

/**
 * Parity: the ONNX graph we build for face-api.js's FaceRecognitionNet (dlib ResNet) must give
 * the same 128-d descriptor as face-api.js itself — its own code (`FaceRecognitionNet.
 * computeFaceDescriptor`, including its mean-RGB normalisation), on `@tensorflow/tfjs`'s pure-JS
 * CPU backend — on real face crops, within 1e-4 (descriptor values are ~0.01–0.3).
 * face-api's Node build that uses plain @tensorflow/tfjs is `face-api.node-wasm.js` (CommonJS; it
 * also registers the WASM backend, hence the dev dependency @tensorflow/tfjs-backend-wasm; we
 * select the CPU backend). Crops come from a photo shipped in an npm package, as in parity.test.ts.
 */

const TOLERANCE = 1e-4;
const SIZE = FACE_RECOGNITION_INPUT_SIZE;

/** Face regions (x, y, w, h in pixels of the 800×564 screenshot) of the demo's webcam face. */
const CROPS = [
  { x: 14, y: 142, w: 140, h: 140 },
  { x: 34, y: 160, w: 100, h: 110 },
  { x: 0, y: 120, w: 180, h: 180 },
];

const require = createRequire(import.meta.url);

let photo: Awaited<ReturnType<typeof normalizeImage>>;

beforeAll(async () => {
  const bytes = await readFile(packageFile('@vladmandic/human', 'assets/screenshot-faceid.jpg'));
  photo = await normalizeImage(new Uint8Array(bytes));
});

describe('face-api FaceRecognitionNet → ONNX parity', () => {
  it(`ONNX descriptor equals face-api.js's within ${TOLERANCE}`, async () => {
    const manifestPath = sourceModelPath(FACE_MODELS.resnet);
    const onnxBytes = encodeModel(buildFaceRecognitionNet(await readFaceApiWeights(manifestPath)));
    const session = await loadModel('parity:faceapi-resnet', async () => onnxBytes);

    const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js');
    const tf = require('@tensorflow/tfjs');
    await tf.setBackend('cpu');
    // The reference loads the weights the way face-api does: tfjs decodes the manifest's
    // (partly uint8-quantized) weights, and the net takes the resulting weight map.
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
    const bin = await readFile(packageFile('@vladmandic/face-api', `model/${manifest[0].paths[0]}`));
    const weightMap = tf.io.decodeWeights(new Uint8Array(bin).buffer, manifest[0].weights);
    const net = new faceapi.FaceRecognitionNet();
    net.loadFromWeightMap(weightMap);

    const descriptors: Float32Array[] = [];
    for (const crop of CROPS) {
      const pixels = cropResize(photo, crop, SIZE, SIZE);
      const got = await session.run({
        [session.inputNames[0]!]: new ort.Tensor('float32', pixels, [1, SIZE, SIZE, 3]),
      });
      const have = got[FACE_RECOGNITION_OUTPUT]!.data as Float32Array;
      const input = tf.tensor3d(pixels, [SIZE, SIZE, 3]);
      const want = (await net.computeFaceDescriptor(input)) as Float32Array;
      input.dispose();
      expect(have.length).toBe(128);
      expect(want.length).toBe(128);
      let maxDiff = 0;
      for (let i = 0; i < want.length; i++) maxDiff = Math.max(maxDiff, Math.abs(want[i]! - have[i]!));
      expect(maxDiff).toBeLessThanOrEqual(TOLERANCE);
      // Guard against comparing two constant outputs: the descriptor must react to the face.
      expect(Math.max(...want) - Math.min(...want)).toBeGreaterThan(0.05);
      descriptors.push(have);
    }
    // Different framings of one face give different (not identical) descriptors.
    expect(Math.max(...descriptors[0]!.map((v, i) => Math.abs(v - descriptors[2]![i]!)))).toBeGreaterThan(
      1e-3,
    );
    net.dispose();
  }, 120_000);
});
