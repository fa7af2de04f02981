import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as tf from '@tensorflow/tfjs';

/**
 * Loads a TF.js graph model from disk into TF.js itself (the reference implementation for the
 * parity test). TF.js in Node without tfjs-node cannot read file:// URLs, so the JSON and the
 * shards are handed over from memory.
 */
export async function loadTfjsGraphModel(modelJsonPath: string): Promise<tf.GraphModel> {
  await tf.setBackend('cpu');
  const json = JSON.parse(await readFile(modelJsonPath, 'utf8'));
  const dir = dirname(modelJsonPath);
  const specs: tf.io.WeightsManifestEntry[] = [];
  const buffers: Uint8Array[] = [];
  for (const group of json.weightsManifest) {
    specs.push(...group.weights);
    for (const p of group.paths) buffers.push(new Uint8Array(await readFile(join(dir, p))));
  }
  const total = buffers.reduce((a, b) => a + b.length, 0);
  const weightData = new Uint8Array(total);
  let at = 0;
  for (const b of buffers) {
    weightData.set(b, at);
    at += b.length;
  }
  return tf.loadGraphModel(
    tf.io.fromMemory({
      modelTopology: json.modelTopology,
      weightSpecs: specs,
      weightData: weightData.buffer,
    }),
  );
}

export { tf };
