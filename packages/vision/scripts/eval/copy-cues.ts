import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { NormalizedImage } from '../../src/image/normalize.ts';
import { measureMisregistration } from '../../src/tamper/misregistration.ts';
import { colourSpread } from '../../src/tamper/photocopy.ts';
import { measureSpeckle } from '../../src/tamper/toner-speckle.ts';

/**
 * The hand-made copy cues, measured on exported training-style images (export-training.ts:
 * each image is the document's extent at the service's working size):
 *
 *   npx tsx packages/vision/scripts/eval/copy-cues.ts DIR [--rows]
 *
 * Prints per kind the colour spread, the planes' misregistration and the toner speckle density
 * (quantiles), and with --rows every image. For tuning the copy cues' thresholds on tuning-side
 * sources only (the export never draws holdout sources).
 */
const dir = process.argv[2] ?? '/tmp/tamper-data';
const index = JSON.parse(await readFile(join(dir, 'index.json'), 'utf8')) as {
  file: string;
  kind: string;
  source: string;
}[];
const byKind = new Map<string, { spread: number[]; mis: number[]; speck: number[]; ms: number[] }>();
const rows: string[] = [];
for (const e of index) {
  const { data, info } = await sharp(join(dir, e.file))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const img: NormalizedImage = {
    rgb: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    width: info.width,
    height: info.height,
    originalWidth: info.width,
    originalHeight: info.height,
  } as NormalizedImage;
  const region = { x: 0, y: 0, w: info.width, h: info.height };
  const spread = colourSpread(img, region);
  const t0 = performance.now();
  const m = measureMisregistration(img, region);
  const t1 = performance.now();
  const sp = measureSpeckle(img, region, 16);
  const t2 = performance.now();
  const k = byKind.get(e.kind) ?? { spread: [], mis: [], speck: [], ms: [] };
  k.spread.push(spread);
  k.mis.push(m ? m.shift : Number.NaN);
  k.speck.push(sp ? sp.density : Number.NaN);
  k.ms.push(t1 - t0, t2 - t1);
  byKind.set(e.kind, k);
  rows.push(
    [
      e.kind.padEnd(20),
      e.source.slice(0, 36).padEnd(36),
      spread.toFixed(4),
      m
        ? `${m.shift.toFixed(3)} r(${m.red.map((v) => v.toFixed(2))}) b(${m.blue.map((v) => v.toFixed(2))})`
        : '-',
      sp ? sp.density.toFixed(2) : '-',
      `${(t1 - t0).toFixed(0)}/${(t2 - t1).toFixed(0)} ms`,
    ].join(' '),
  );
}
if (process.argv.includes('--rows')) console.log(rows.sort().join('\n'));
const q = (xs: number[]) => {
  const v = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  if (!v.length) return '-';
  const at = (p: number) => v[Math.min(v.length - 1, Math.floor(p * v.length))]!.toFixed(3);
  return `${at(0)} ${at(0.1)} ${at(0.5)} ${at(0.9)} ${v[v.length - 1]!.toFixed(3)} (${v.length}/${xs.length})`;
};
console.log('kind | spread min p10 med p90 max | misregistration | speckle');
for (const [kind, k] of [...byKind].sort())
  console.log(`${kind} | ${q(k.spread)} | ${q(k.mis)} | ${q(k.speck)}`);
