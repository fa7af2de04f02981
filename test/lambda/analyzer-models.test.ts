import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { MRZ_MODEL_PATH, mrzModelPath } from '../../packages/vision/src/mrz/line-model.ts';
import { CAPTURE_MODEL_PATH, captureModel } from '../../packages/vision/src/tamper/capture-model.ts';
import { PORTRAIT_MODEL_PATH, portraitModelPath } from '../../packages/vision/src/tamper/portrait-model.ts';

/**
 * The analyzer's container image (infra/analyzer/Dockerfile) carries every model the project
 * trained and commits beside its recipe: the bundle loses the repository layout the default paths
 * resolve from, so each file is copied into the image and named by the environment variable the
 * service reads. A model left out finds no file and its cue stays silent on AWS only.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const dockerfile = readFileSync(new URL('../../infra/analyzer/Dockerfile', import.meta.url), 'utf8');

const MODELS = [
  { env: 'IDV_MRZ_MODEL', committed: MRZ_MODEL_PATH, loaded: mrzModelPath },
  { env: 'IDV_TAMPER_CAPTURE_MODEL', committed: CAPTURE_MODEL_PATH, loaded: () => captureModel().path },
  { env: 'IDV_TAMPER_PORTRAIT_MODEL', committed: PORTRAIT_MODEL_PATH, loaded: portraitModelPath },
];

describe('the analyzer image carries the committed models', () => {
  afterEach(() => {
    for (const m of MODELS) delete process.env[m.env];
  });

  it.each(MODELS)('$env: copied into the image and named where the service reads it', (m) => {
    const source = relative(root, m.committed);
    expect(existsSync(m.committed)).toBe(true);
    const copy = dockerfile.match(new RegExp(`^COPY ${source.replace(/\./g, '\\.')} (\\S+)$`, 'm'));
    expect(copy, `COPY ${source}`).not.toBeNull();
    const env = dockerfile.match(new RegExp(`^ENV ${m.env}=(\\S+)$`, 'm'));
    expect(env?.[1]).toBe(copy![1]);
    // The variable is the one the service reads.
    process.env[m.env] = env![1];
    expect(m.loaded()).toBe(env![1]);
  });
});
