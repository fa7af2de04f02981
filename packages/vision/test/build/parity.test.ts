import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { convertTfjsModel } from '../../build/convert/index.ts';
import { FACE_MODELS, type FaceModelName, sourceModelPath } from '../../src/faces/models.ts';
import { cropResize } from '../../src/image/affine.ts';
import { normalizeImage } from '../../src/image/normalize.ts';
import { loadModel, ort, packageFile } from '../../src/runtime/onnx.ts';
import { loadTfjsGraphModel, tf } from './tfjs-loader.ts';

/**
 * Parity: the ONNX model produced by our converter must give the same outputs as the original
 * TF.js graph model run by TF.js itself, on real face crops (max abs difference ≤ 1e-4).
 * The crops come from a photo shipped inside an npm package (@vladmandic/human's demo
 * screenshot, MIT), so the test runs anywhere the dependencies are installed.
 * TF.js runs on its pure-JS CPU backend, which is slow: a few crops per model only.
 *
 * The bound is 1e-4 absolute for values up to 1 and 1e-4 relative above: BlazeFace emits
 * background logits near -1800, where one float32 step (ulp) is already 1.2e-4, so no two
 * implementations that sum in a different order can agree to 1e-4 absolute there. Measured:
 * max relative error ~5e-7 (a few ulps) on every output.
 */

const TOLERANCE = 1e-4;

/** Face regions (x, y, w, h in pixels of the 800×564 screenshot) of the demo's webcam face. */
const CROPS = [
  { x: 14, y: 142, w: 140, h: 140 },
  { x: 34, y: 160, w: 100, h: 110 },
];

interface ModelCase {
  name: FaceModelName;
  size: number;
  /** Pixel value mapping the model expects (from @vladmandic/human's pre-processing). */
  scale: (v: number) => number;
}

const CASES: ModelCase[] = [
  { name: FACE_MODELS.detector, size: 256, scale: (v) => v / 127.5 - 1 },
  { name: FACE_MODELS.faceres, size: 224, scale: (v) => v },
  { name: FACE_MODELS.mobileface, size: 112, scale: (v) => v },
];

let photo: Awaited<ReturnType<typeof normalizeImage>>;

beforeAll(async () => {
  const bytes = await readFile(packageFile('@vladmandic/human', 'assets/screenshot-faceid.jpg'));
  photo = await normalizeImage(new Uint8Array(bytes));
});

describe('TF.js → ONNX converter parity on real face crops', () => {
  for (const c of CASES) {
    it(`${c.name}: ONNX equals TF.js within ${TOLERANCE}`, async () => {
      const path = sourceModelPath(c.name);
      const onnxBytes = await convertTfjsModel(path);
      const session = await loadModel(`parity:${c.name}`, async () => onnxBytes);
      const reference = await loadTfjsGraphModel(path);
      let compared = 0;
      for (const crop of CROPS) {
        const pixels = cropResize(photo, crop, c.size, c.size).map(c.scale);
        const input = new ort.Tensor('float32', pixels, [1, c.size, c.size, 3]);
        const got = await session.run({ [session.inputNames[0]!]: input });
        const tfInput = tf.tensor4d(pixels, [1, c.size, c.size, 3]);
        const names = [...session.outputNames];
        const expected = reference.execute(tfInput, names) as tf.Tensor | tf.Tensor[];
        const expectedList = Array.isArray(expected) ? expected : [expected];
        for (let k = 0; k < names.length; k++) {
          const want = expectedList[k]!.dataSync() as Float32Array;
          const have = got[names[k]!]!.data as Float32Array;
          expect(have.length).toBe(want.length);
          let maxDiff = 0;
          for (let i = 0; i < want.length; i++) {
            const scaled = Math.abs(want[i]! - have[i]!) / Math.max(1, Math.abs(want[i]!));
            maxDiff = Math.max(maxDiff, scaled);
          }
          expect(maxDiff, `${c.name} output ${names[k]}`).toBeLessThanOrEqual(TOLERANCE);
          // Guard against comparing two constant outputs: a vector output must react to the face.
          if (want.length > 1)
            expect(Math.max(...want) - Math.min(...want), `${names[k]} varies`).toBeGreaterThan(0);
          compared++;
        }
        tf.dispose([tfInput, ...expectedList]);
      }
      expect(compared).toBe(CROPS.length * session.outputNames.length);
      reference.dispose();
    });
  }
});
