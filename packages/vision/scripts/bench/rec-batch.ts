import { documentPhoto, HOLDER } from '../../../../test/support/documents.ts';
import { normalizeImage } from '../../src/image/normalize.ts';
import type { RgbImage } from '../../src/image/raster.ts';
import { detectText } from '../../src/ocr/detect.ts';
import { rectCorners } from '../../src/ocr/geometry.ts';
import { warmUpOcr } from '../../src/ocr/models.ts';
import { alignRect, dominantAngle, mrzRowLike } from '../../src/ocr/page.ts';
import {
  cropLine,
  EQUAL_WIDTHS,
  ONE_LINE_PER_RUN,
  PADDED_BATCHES,
  type RecBatching,
  recognizeLines,
} from '../../src/ocr/recognize.ts';
import { renderCapture } from '../../test/support/synthetic.ts';

/**
 * Does the printed-line recogniser (PP-OCR rec) cost less CPU when a page's lines run in
 * batches (padded to the batch's widest) than one line per run? The same line crops of a few
 * drawn pages (what readPage recognises in its page pass: the MRZ-like rows are left out, as the
 * deferral does), each page one recognizeLines call, every setting in turn per round with the
 * order rotated, CPU ms of the process (every thread) and wall ms, medians over the rounds. Also
 * counts the lines whose text differs from one line per run.
 *
 *   nice -n 10 npx tsx packages/vision/scripts/bench/rec-batch.ts [rounds]
 *   (ONNX_THREADS=1 for one thread per session, as under ANALYSIS_CONCURRENCY=2;
 *   REC_BATCH_ONLY='one per run;8, ×1.1' runs only the settings named; REC_BATCH_VERBOSE=1
 *   prints each line read differently)
 */

const ALL_SETTINGS: [string, RecBatching][] = [
  ['one per run', ONE_LINE_PER_RUN],
  ['equal widths (default)', EQUAL_WIDTHS],
  ['8, ×1.1', { maxLines: 8, widthRatio: 1.1 }],
  ['8, ×1.25 (IDV_REC_BATCH=1)', PADDED_BATCHES],
  ['8, ×1.5', { maxLines: 8, widthRatio: 1.5 }],
  ['16, ×1.5', { maxLines: 16, widthRatio: 1.5 }],
  ['all, ×∞', { maxLines: 1000, widthRatio: Number.POSITIVE_INFINITY }],
];
const only = process.env.REC_BATCH_ONLY?.split(';');
const SETTINGS = ALL_SETTINGS.filter(([name]) => !only || only.includes(name));

async function pageCrops(bytes: Uint8Array): Promise<RgbImage[]> {
  const img = await normalizeImage(bytes);
  const boxes = (await detectText(img, { maxSide: 640 })).filter((b) => b.rect.short >= 8);
  const angle = dominantAngle(boxes);
  const rects = boxes.map((b) => alignRect(b.rect, angle));
  return rects.filter((_, i) => !mrzRowLike(rects, i, angle)).map((r) => cropLine(img, rectCorners(r)));
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const rounds = Number(process.argv[2] ?? 5);
await warmUpOcr();
const pages = await Promise.all(
  [
    documentPhoto('passport', HOLDER, { mrzFont: 'ocr-b' }),
    documentPhoto('cni_front', HOLDER),
    documentPhoto('cni_back', HOLDER),
    renderCapture('passport', { jpegQuality: 85, noise: 4 }),
    renderCapture('niger_paper', { jpegQuality: 85 }),
  ].map(async (b) => pageCrops(await b)),
);
console.log(
  `${pages.length} pages, lines per page ${pages.map((p) => p.length).join(', ')}; widths ${pages
    .flat()
    .map((c) => c.width)
    .sort((a, b) => a - b)
    .join(' ')}`,
);
const reference = await Promise.all(pages.map((p) => recognizeLines(p, ONE_LINE_PER_RUN)));
for (const [, batching] of SETTINGS) for (const p of pages) await recognizeLines(p, batching); // warm each shape once
const cpu = new Map<string, number[]>(SETTINGS.map(([n]) => [n, []]));
const wall = new Map<string, number[]>(SETTINGS.map(([n]) => [n, []]));
const differ = new Map<string, string>();
for (let r = 0; r < rounds; r++) {
  const order = SETTINGS.map((_, k) => SETTINGS[(k + r) % SETTINGS.length]!);
  for (const [name, batching] of order) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const read = [];
    for (const p of pages) read.push(await recognizeLines(p, batching));
    wall.get(name)!.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.get(name)!.push((c.user + c.system) / 1000);
    if (r === 0) {
      let full = 0;
      let mrz = 0;
      for (const [k, page] of read.entries()) {
        for (const [j, line] of page.entries()) {
          const ref = reference[k]![j]!;
          if (line.full.text !== ref.full.text) full++;
          if (line.mrz.text !== ref.mrz.text) mrz++;
          if (
            process.env.REC_BATCH_VERBOSE &&
            (line.full.text !== ref.full.text || line.mrz.text !== ref.mrz.text)
          )
            console.log(
              `  ${name}: ${JSON.stringify(ref.full.text)} → ${JSON.stringify(line.full.text)} / MRZ alphabet ${JSON.stringify(ref.mrz.text)} → ${JSON.stringify(line.mrz.text)}`,
            );
        }
      }
      differ.set(name, `${full} / ${mrz}`);
    }
  }
}
const base = median(cpu.get(SETTINGS[0]![0])!);
console.log(
  `\n| batching | CPU ms (all pages) | ratio | wall ms | lines read differently (text / MRZ alphabet) |`,
);
console.log('|---|---|---|---|---|');
for (const [name] of SETTINGS) {
  const c = median(cpu.get(name)!);
  console.log(
    `| ${name} | ${c.toFixed(0)} | ${(c / base).toFixed(2)} | ${median(wall.get(name)!).toFixed(0)} | ${differ.get(name)} of ${pages.flat().length} |`,
  );
}
process.exit(0);
