import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareFaceModels, prepareModel } from '../../build/face-models.ts';
import { cachedModelPath, faceModelPath } from '../../src/faces/models.ts';

/**
 * The build step's conversion: writes the cache once, atomically, and reuses it; the run-time
 * code only loads what it wrote, and names the command when it is missing.
 */

let dir: string;
const previous = process.env.MODEL_CACHE_DIR;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'idv-models-'));
  process.env.MODEL_CACHE_DIR = dir;
});

afterAll(async () => {
  if (previous === undefined) delete process.env.MODEL_CACHE_DIR;
  else process.env.MODEL_CACHE_DIR = previous;
  await rm(dir, { recursive: true, force: true });
});

describe('prepareFaceModels', () => {
  it('leaves the service unable to load an unconverted model, with the command to run', async () => {
    await expect(faceModelPath('blazeface')).rejects.toThrow(/blazeface is not converted.*npm run models/);
  });

  it('converts into MODEL_CACHE_DIR, concurrently without leftovers, and is idempotent', async () => {
    // Two processes starting at once are simulated by two concurrent calls.
    await Promise.all([prepareFaceModels(), prepareFaceModels()]);
    const files = (await readdir(dir)).sort();
    expect(files.every((f) => f.endsWith('.onnx'))).toBe(true);
    expect(files.some((f) => f.startsWith('blazeface-'))).toBe(true);
    expect(files.some((f) => f.startsWith('faceres-'))).toBe(true);
    // The ResNet is built from face-api's weights (no TF.js graph) into the same cache.
    expect(files.some((f) => f.startsWith('faceapi-resnet-'))).toBe(true);
    expect(files).toHaveLength(3);
    const path = await cachedModelPath('blazeface');
    const before = await stat(path);
    expect(before.size).toBeGreaterThan(100_000);
    // A second run finds the files and does not rewrite them.
    expect(await prepareModel('blazeface')).toBe(path);
    expect((await stat(path)).mtimeMs).toBe(before.mtimeMs);
  });
});
