import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { prepareFaceModels } from '../../build/face-models.ts';
import { analyzeFaces } from '../../src/faces/analyze.ts';
import { normalizeImage } from '../../src/image/normalize.ts';
import { cropImage } from '../../src/image/raster.ts';
import { packageFile } from '../../src/runtime/onnx.ts';
import { detectTamper } from '../../src/tamper/index.ts';

/**
 * Face work timing: detect on the document and the selfie, embed both, compare — the whole
 * `analyzeFaces` call, median of N runs after a warm-up — plus `detectTamper` on the document.
 * Uses pictures shipped in npm packages, so it runs without the fixture set; when the fixture
 * folder exists a real passport page is used as the document instead.
 *
 *   npx tsx packages/vision/scripts/bench/faces.ts [runs]
 */

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

async function load(path: string) {
  return normalizeImage(new Uint8Array(await readFile(path)));
}

export async function benchFaces(runs = 15): Promise<void> {
  await prepareFaceModels();
  const selfie = await load(packageFile('@vladmandic/human', 'assets/screenshot-faceid.jpg'));
  let document = cropImage(await load(packageFile('@vladmandic/human', 'assets/samples.jpg')), {
    x: 0,
    y: 0,
    w: 1280,
    h: 160,
  });
  let source = 'human samples strip (npm)';
  try {
    document = await load(
      resolve(process.env.FIXTURES_DIR ?? '../shared/fixtures', 'documents/pe_passport-td3.jpg'),
    );
    source = 'fixture passport page 1334×880';
  } catch {
    // no fixture set on this machine: keep the npm picture
  }
  await analyzeFaces([document], selfie); // warm-up: model load, WASM compile
  const total: number[] = [];
  const steps: Record<string, number[]> = {};
  for (let i = 0; i < runs; i++) {
    // A fresh copy each run: the document face cache is keyed on the image object.
    const doc = { ...document, rgb: document.rgb.slice() };
    const t0 = performance.now();
    const r = await analyzeFaces([doc], selfie);
    total.push(performance.now() - t0);
    for (const [k, v] of Object.entries(r.timings)) {
      steps[k] = [...(steps[k] ?? []), v];
    }
  }
  const tamper: number[] = [];
  for (let i = 0; i < Math.min(runs, 5); i++) {
    const doc = { ...document, rgb: document.rgb.slice() };
    const t0 = performance.now();
    await detectTamper({ front: doc }, { layout: 'td3' });
    tamper.push(performance.now() - t0);
  }
  console.log(
    `\nFaces (document: ${source}; selfie 800×564), ${runs} runs, ONNX_THREADS=${process.env.ONNX_THREADS ?? 1}`,
  );
  console.log(`| step | median ms |\n|---|---|`);
  console.log(`| analyzeFaces total (detect both, embed both, compare) | ${median(total).toFixed(0)} |`);
  for (const [k, v] of Object.entries(steps)) console.log(`| ${k} | ${median(v).toFixed(0)} |`);
  console.log(`| detectTamper (front, incl. portrait detection) | ${median(tamper).toFixed(0)} |`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchFaces(Number(process.argv[2] ?? 15));
}
