import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { Quad, RgbImage } from '../../src/image/raster.ts';
import { decodeConstrained } from '../../src/mrz/constrained-decode.ts';
import { greedyText, MRZ_MODEL_PATH, mrzLineInput, mrzLinePosteriors } from '../../src/mrz/line-model.ts';
import { PPOCR_FILLER_WEIGHT } from '../../src/mrz/model-read.ts';
import { cropLine, recognizeLines } from '../../src/ocr/recognize.ts';

const ANY = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';

import { type Half, loadSplitTruth } from './fixture-split.ts';

/**
 * Recogniser comparison on the fixture MRZ line crops (mrz_lines/*.tif, one printed MRZ line
 * each): the project's MRZ model (greedy CTC, no format constraint, since a lone line's format is
 * not known) against PP-OCRv4 restricted to the MRZ alphabet. Per-line exact and character error
 * rate, per half of the fixed split (report the holdout; the tuning half is what may be looked at).
 *
 * Usage: npx tsx packages/vision/scripts/eval/mrz-lines.ts [fixturesDir] [--half holdout|tuning|all] [--verbose]
 */

function edit(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0]!;
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = Math.min(d[j]! + 1, d[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = d[j]!;
      d[j] = cur;
    }
  }
  return d[b.length]!;
}

async function loadRgb(path: string): Promise<RgbImage> {
  const { data, info } = await sharp(path)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const rgb = new Uint8Array(info.width * info.height * 3);
  for (let i = 0, j = 0; i < info.width * info.height; i++, j += info.channels) {
    rgb[i * 3] = data[j]!;
    rgb[i * 3 + 1] = data[j + (info.channels >= 3 ? 1 : 0)]!;
    rgb[i * 3 + 2] = data[j + (info.channels >= 3 ? 2 : 0)]!;
  }
  return { rgb, width: info.width, height: info.height };
}

export async function evaluateMrzLines(
  dir: string,
  half: Half | 'all',
  verbose: boolean,
  modelPath = process.env.IDV_MRZ_MODEL ?? MRZ_MODEL_PATH,
): Promise<void> {
  const withModel = existsSync(modelPath);
  if (!withModel) console.log(`no MRZ model at ${modelPath}: PP-OCR only`);
  const all = await loadSplitTruth(dir);
  const items = all.filter((e) => e.file.startsWith('mrz_lines/') && (half === 'all' || e.half === half));
  const stats = {
    model: { exact: 0, errors: 0, ms: [] as number[] },
    ppocr: { exact: 0, errors: 0, ms: [] as number[] },
    ppocrLength: { exact: 0, errors: 0, ms: [] as number[] },
  };
  let chars = 0;
  for (const { file, truth } of items) {
    const want = truth.mrz?.[0];
    if (!want) continue;
    const img = await loadRgb(join(dir, file));
    const quad: Quad = [
      [0, 0],
      [img.width, 0],
      [img.width, img.height],
      [0, img.height],
    ];
    let t = performance.now();
    let mine = '';
    if (withModel) {
      const [post] = await mrzLinePosteriors([mrzLineInput(img, quad)], modelPath);
      mine = greedyText(post!);
      stats.model.ms.push(performance.now() - t);
    }
    t = performance.now();
    const [pp] = await recognizeLines([cropLine(img, quad, 1600 * 1.6, 1.6)]);
    const theirs = pp!.mrz.text;
    stats.ppocr.ms.push(performance.now() - t);
    // A lone line's format is unknown; its length is taken as the MRZ length nearest the greedy
    // reading's, and every position may be any MRZ character (no position classes).
    const n = [30, 36, 44].reduce((a, b) =>
      Math.abs(b - theirs.length) < Math.abs(a - theirs.length) ? b : a,
    );
    const fixed = decodeConstrained(pp!.mrzPosteriors, Array(n).fill(ANY), {
      fillerWeight: PPOCR_FILLER_WEIGHT,
    });
    const lengthFixed = fixed?.text ?? theirs;
    stats.ppocrLength.ms.push(0);
    chars += want.length;
    for (const [k, got] of [
      ['model', mine],
      ['ppocr', theirs],
      ['ppocrLength', lengthFixed],
    ] as const) {
      stats[k].exact += got === want ? 1 : 0;
      stats[k].errors += edit(got, want);
    }
    if (verbose && (mine !== want || theirs !== want))
      console.log(`${file}\n  truth ${want}\n  model ${mine}\n  ppocr ${theirs}\n  fixed ${lengthFixed}`);
  }
  const n = stats.ppocr.ms.length;
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
  console.log(`mrz_lines (${half}): ${n} lines, ${chars} characters`);
  console.log('| recogniser | line exact | CER | median ms/line |');
  console.log('|---|---|---|---|');
  const names = {
    model: 'MRZ CRNN (training/mrz)',
    ppocr: 'PP-OCRv4, MRZ alphabet, greedy',
    ppocrLength: 'PP-OCRv4, length-constrained decoding',
  };
  for (const k of withModel
    ? (['model', 'ppocr', 'ppocrLength'] as const)
    : (['ppocr', 'ppocrLength'] as const)) {
    const s = stats[k];
    console.log(
      `| ${names[k]} | ${s.exact}/${n} (${((100 * s.exact) / Math.max(1, n)).toFixed(1)}%) | ${((100 * s.errors) / Math.max(1, chars)).toFixed(2)}% | ${med(s.ms).toFixed(0)} |`,
    );
  }
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const args = process.argv.slice(2);
  const hi = args.indexOf('--half');
  const half = (hi >= 0 ? args[hi + 1] : 'holdout') as Half | 'all';
  const dir =
    args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--half') ??
    resolve(fileURLToPath(import.meta.url), '../../../../../../shared/fixtures');
  await evaluateMrzLines(dir, half, args.includes('--verbose'));
}
