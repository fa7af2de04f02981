import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { Quad, RgbImage } from '../../src/image/raster.ts';
import { type ConstrainedLine, decodeConstrained } from '../../src/mrz/constrained-decode.ts';
import {
  greedyText,
  type LinePosteriors,
  mrzLineInput,
  mrzLinePosteriors,
  mrzModelPath,
} from '../../src/mrz/line-model.ts';
import { PPOCR_FILLER_WEIGHT, voteLine } from '../../src/mrz/model-read.ts';
import { cropLine, recognizeLines } from '../../src/ocr/recognize.ts';
import { type Half, loadSplitTruth } from './fixture-split.ts';
import { editDistance } from './reading-metrics.ts';

/**
 * Recogniser comparison on single MRZ line images: the fixture crops (mrz_lines/*.tif, one
 * printed line each, per half of the fixed split) or a folder of synthetic lines written by
 * training/mrz/dump_lines.py (`--lines DIR`, unseen by training). Compared: the project's MRZ
 * model (greedy CTC; length-constrained; with the service's width rule for a known character count) and
 * PP-OCRv4 restricted to the MRZ alphabet (greedy; length-constrained), and a per-position vote
 * of both. A lone line's format is not known, so its length is the MRZ length (30, 36, 44)
 * nearest the greedy reading and every position may hold any MRZ character.
 *
 * Usage: npx tsx packages/vision/scripts/eval/mrz-lines.ts [fixturesDir] [--half holdout|tuning|all]
 *        [--lines DIR [--limit=N]] [--no-ppocr] [--verbose]
 * IDV_MRZ_MODEL=<file.onnx> evaluates another model file (a training snapshot).
 */

const ANY = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<';
const LENGTHS = [30, 36, 44];

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

interface LineItem {
  name: string;
  want: string;
  path: string;
}

async function fixtureLines(dir: string, half: Half | 'all'): Promise<LineItem[]> {
  const all = await loadSplitTruth(dir);
  return all
    .filter((e) => e.file.startsWith('mrz_lines/') && (half === 'all' || e.half === half) && e.truth.mrz?.[0])
    .map((e) => ({ name: e.file, want: e.truth.mrz![0]!, path: join(dir, e.file) }));
}

async function folderLines(dir: string): Promise<LineItem[]> {
  const truth = JSON.parse(await readFile(join(dir, 'lines.json'), 'utf8')) as Record<string, string>;
  return Object.entries(truth).map(([name, want]) => ({ name, want, path: join(dir, name) }));
}

const nearestLength = (len: number) =>
  LENGTHS.reduce((a, b) => (Math.abs(b - len) < Math.abs(a - len) ? b : a));

const constrained = (p: LinePosteriors, n: number, fillerWeight = 1): ConstrainedLine | null =>
  decodeConstrained(p, Array(n).fill(ANY), { fillerWeight });

interface Stat {
  exact: number;
  errors: number;
  ms: number[];
}

export async function evaluateMrzLines(
  items: LineItem[],
  label: string,
  opts: { verbose?: boolean; ppocr?: boolean } = {},
): Promise<void> {
  const modelPath = mrzModelPath();
  const withModel = existsSync(modelPath);
  const withPpocr = opts.ppocr !== false;
  if (!withModel) console.log(`no MRZ model at ${modelPath}: PP-OCR only`);
  const names: Record<string, string> = {
    model: 'MRZ CRNN, greedy (natural width)',
    modelLength: 'MRZ CRNN, length-constrained (natural width)',
    modelPitch: 'MRZ CRNN, length-constrained, service width rule (chars known)',
    ppocr: 'PP-OCRv4, MRZ alphabet, greedy',
    ppocrLength: 'PP-OCRv4, length-constrained decoding',
    vote: 'vote of CRNN (width rule) and PP-OCRv4 (length-constrained)',
  };
  const keys = [
    ...(withModel ? ['model', 'modelLength', 'modelPitch'] : []),
    ...(withPpocr ? ['ppocr', 'ppocrLength'] : []),
    ...(withModel && withPpocr ? ['vote'] : []),
  ];
  const stats: Record<string, Stat> = Object.fromEntries(
    keys.map((k) => [k, { exact: 0, errors: 0, ms: [] }]),
  );
  let chars = 0;
  for (const { name, want, path } of items) {
    const img = await loadRgb(path);
    const quad: Quad = [
      [0, 0],
      [img.width, 0],
      [img.width, img.height],
      [0, img.height],
    ];
    const got: Record<string, string> = {};
    let modelPitch: ConstrainedLine | null = null;
    if (withModel) {
      let t = performance.now();
      const [post] = await mrzLinePosteriors([mrzLineInput(img, quad)], modelPath);
      got.model = greedyText(post!);
      stats.model!.ms.push(performance.now() - t);
      const n = nearestLength(got.model.length);
      got.modelLength = constrained(post!, n)?.text ?? got.model;
      t = performance.now();
      const [pitched] = await mrzLinePosteriors([mrzLineInput(img, quad, { chars: n })], modelPath);
      modelPitch = constrained(pitched!, n);
      got.modelPitch = modelPitch?.text ?? got.model;
      stats.modelPitch!.ms.push(performance.now() - t);
    }
    let ppLength: ConstrainedLine | null = null;
    if (withPpocr) {
      const t = performance.now();
      const [pp] = await recognizeLines([cropLine(img, quad, 1600 * 1.6, 1.6)]);
      got.ppocr = pp!.mrz.text;
      stats.ppocr!.ms.push(performance.now() - t);
      // The model's length when there is one (the vote needs position-aligned readings).
      const n = nearestLength((got.model ?? got.ppocr).length);
      ppLength = constrained(pp!.mrzPosteriors, n, PPOCR_FILLER_WEIGHT);
      got.ppocrLength = ppLength?.text ?? got.ppocr;
    }
    if (modelPitch && ppLength && modelPitch.text.length === ppLength.text.length)
      got.vote = voteLine([modelPitch, ppLength]).text;
    else if (stats.vote) got.vote = got.modelPitch ?? '';
    chars += want.length;
    for (const k of keys) {
      stats[k]!.exact += got[k] === want ? 1 : 0;
      stats[k]!.errors += editDistance(got[k] ?? '', want);
    }
    if (opts.verbose && keys.some((k) => got[k] !== want))
      console.log(
        `${name}\n  truth        ${want}\n${keys.map((k) => `  ${k.padEnd(12)} ${got[k]}${got[k] === want ? '' : '  ✗'}`).join('\n')}`,
      );
  }
  const n = items.length;
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
  console.log(`${label}: ${n} lines, ${chars} characters`);
  console.log('| recogniser | line exact | CER | median ms/line |');
  console.log('|---|---|---|---|');
  for (const k of keys) {
    const s = stats[k]!;
    console.log(
      `| ${names[k]} | ${s.exact}/${n} (${((100 * s.exact) / Math.max(1, n)).toFixed(1)}%) | ${((100 * s.errors) / Math.max(1, chars)).toFixed(2)}% | ${s.ms.length ? med(s.ms).toFixed(0) : '—'} |`,
    );
  }
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const args = process.argv.slice(2);
  const flagValue = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const half = (flagValue('--half') ?? 'holdout') as Half | 'all';
  const linesDir = flagValue('--lines');
  const opts = {
    verbose: args.includes('--verbose'),
    ppocr: !args.includes('--no-ppocr'),
  };
  const limit = Number(args.find((a) => a.startsWith('--limit='))?.slice(8) ?? Number.POSITIVE_INFINITY);
  if (linesDir) {
    const lines = (await folderLines(linesDir)).slice(0, limit);
    await evaluateMrzLines(lines, `synthetic lines ${linesDir}`, opts);
  } else {
    const dir =
      args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--half' && args[i - 1] !== '--lines') ??
      resolve(fileURLToPath(import.meta.url), '../../../../../../shared/fixtures');
    await evaluateMrzLines(await fixtureLines(dir, half), `mrz_lines (${half})`, opts);
  }
}
