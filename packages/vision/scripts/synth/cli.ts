import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { generateCorpus, type Split } from './generate.ts';
import type { SynthTruth } from './truth.ts';

/**
 * Writes the synthetic benchmark to a cache folder (never committed): one JPEG and one
 * `.json` truth per image (a card's back as `<name>-back`), and `index.json` listing them.
 *
 * Usage: npx tsx packages/vision/scripts/synth/cli.ts [--count=2000] [--seed=1]
 *        [--split=all|tuning|heldout] [--out=.cache/synth/corpus] [--boxes]
 * `--boxes` also writes `<name>-boxes.png` with the truth boxes drawn, to check them by eye.
 */

const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

const root = resolve(fileURLToPath(import.meta.url), '../../../../..');
const count = Number(arg('count', '2000'));
const seed = Number(arg('seed', '1'));
const split = arg('split', 'all') as Split;
const out = resolve(root, arg('out', '.cache/synth/corpus'));
const boxes = process.argv.includes('--boxes');

async function overlay(image: Buffer, truth: SynthTruth): Promise<Buffer> {
  const poly = (q: [number, number][], color: string) =>
    `<polygon points="${q.map((p) => p.join(',')).join(' ')}" fill="none" stroke="${color}" stroke-width="2"/>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${truth.width}" height="${truth.height}">${[
    ...truth.documentQuads.map((d) => poly(d.quad, '#00f')),
    ...truth.boxes.map((b) => poly(b.quad, b.field.startsWith('mrz') ? '#f0f' : '#f00')),
    truth.portrait ? poly(truth.portrait.quad, '#0c0') + poly(truth.portrait.face, '#0c0') : '',
  ].join('')}</svg>`;
  return sharp(image)
    .composite([{ input: Buffer.from(svg) }])
    .png()
    .toBuffer();
}

await mkdir(out, { recursive: true });
const index: { name: string; back: string | null; id: string; heldOut: boolean; kind: string }[] = [];
const start = performance.now();
for await (const doc of generateCorpus(count, seed, split)) {
  const name = String(doc.index).padStart(5, '0');
  const save = async (suffix: string, image: Buffer, truth: SynthTruth) => {
    await writeFile(join(out, `${name}${suffix}.jpg`), image);
    await writeFile(join(out, `${name}${suffix}.json`), JSON.stringify(truth));
    if (boxes) await writeFile(join(out, `${name}${suffix}-boxes.png`), await overlay(image, truth));
  };
  await save('', doc.image, doc.truth);
  if (doc.back) await save('-back', doc.back.image, doc.back.truth);
  index.push({
    name,
    back: doc.back ? `${name}-back` : null,
    id: doc.truth.id,
    heldOut: doc.truth.heldOut,
    kind: doc.truth.kind,
  });
  if ((doc.index + 1) % 50 === 0)
    console.log(`${doc.index + 1}/${count} in ${((performance.now() - start) / 1000).toFixed(0)} s`);
}
await writeFile(join(out, 'index.json'), JSON.stringify(index, null, 1));
console.log(`${index.length} documents in ${out}`);
