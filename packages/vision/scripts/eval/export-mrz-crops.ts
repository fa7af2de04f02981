import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MRZ_LAYOUTS, type MrzFormat } from '@idv/core';
import sharp from 'sharp';
import { normalizeImage } from '../../src/image/normalize.ts';
import { mrzCandidates } from '../../src/mrz/locate.ts';
import { modelBlockInputs } from '../../src/mrz/model-read.ts';
import { readDocumentPage } from '../../src/ocr/focus.ts';
import { type CorpusItem, corpus, type GenerateOptions, generateDocument } from '../synth/index.ts';
import { mix, rng } from '../synth/random.ts';

/**
 * Exports the MRZ line crops the service hands its MRZ recogniser, with their truth, as training
 * data (training/mrz/crops.py, `train.py --crops`): documents of the synthetic benchmark's
 * TUNING layouts only (held-out layouts are never drawn) are rendered and captured, their page
 * is read and the MRZ block located as the service does (ocr/focus.ts, mrz/locate.ts), and the
 * block's rows are cut exactly as the model receives them (model-read.ts modelBlockInputs: the
 * first crop and the extra crops, grey, 32 px tall).
 *
 * Writes `<out>/NNNNNN-V-L.png` (document, crop variant, line) and `<out>/labels.tsv` (file,
 * truth line, document index, variant, line), one row per crop; with `--shard=k/n`, n processes
 * share the export (document index k modulo n) and write `labels-k.tsv` each (crops.py reads
 * every `labels*.tsv` of the folder).
 *
 * `--hard-share=F` captures a share F of the documents (a seeded draw per document) at the
 * benchmark's `hard` level instead of the level the corpus gave them: the small (300–700 px
 * wide), blurred photos whose 7–8 px glyphs the recogniser misreads most, otherwise 15 % of the
 * corpus (stage 4 of training/mrz).
 *
 * `--drop-truncated` leaves out the crops whose row cut truncated glyphs (cropTruncated): ink
 * reaching a side of the crop. Their truth holds characters the crop does not show, so they teach
 * the model to invent, and they made most of the error on stage 4's crops (training/mrz README).
 * The dropped crops are still written, listed in `dropped*.tsv` (not read by crops.py).
 *
 * `--filler-glyph-share=F` draws the MRZ fillers of a share F of the documents (another seeded
 * draw per document) in another printer's shape (synth/filler-glyph.ts, a chevron of other
 * proportions, often with a stem through its tip): the recogniser trained on one OCR-B `<` reads
 * such fillers as K, and no check digit can tell (mrz/filler-k.ts).
 *
 * Usage: npx tsx packages/vision/scripts/eval/export-mrz-crops.ts --out=DIR [--count=400]
 *        [--seed=31] [--minutes=M] [--shard=k/n] [--hard-share=F] [--drop-truncated]
 *        [--filler-glyph-share=F]
 */

/**
 * A located block is exported only when the page reading of every row is within this share of
 * edits of its truth line: the block is then the MRZ, its rows in order (a wrong block or a
 * row missing would pair crops with another line's truth). Loose, because the page reading
 * (PP-OCR, before any MRZ decoding) drops and confuses fillers; the crops the model reads worst
 * are the ones worth training on.
 */
const MAX_ROW_EDIT_SHARE = 0.5;

/**
 * Columns at each side of a crop that must hold no ink. The row cut adds half a row height
 * (model-read.ts SIDE_MARGIN, about 10 columns of the 32-px input) beyond the row's ends, so
 * ink in the outermost columns means the row's ends were placed inside the text.
 */
const EDGE_COLUMNS = 2;
/** Rows of the 32-px crop the glyphs occupy (the row band; the crop is 1.0-1.6 row heights tall). */
const BAND = { from: 0.3, to: 0.7 };
/**
 * A pixel is ink when it is darker than the background by this share of the crop's contrast
 * (background = median, ink = 2nd percentile): the faint halo of a blurred glyph in the margin
 * stays background, a cut glyph's stroke does not.
 */
const INK_SHARE = 0.5;
/**
 * An edge column inked over this share of the crop's full height is a straight vertical edge
 * (the card's border, a shadow, the photo's background), not a glyph cut by the row's end.
 */
const STRAIGHT_EDGE_SHARE = 0.9;

/**
 * Whether the row cut truncated glyphs: ink of the glyph band reaches the first or last
 * EDGE_COLUMNS columns of the crop, and that column is not a straight vertical edge. A crop
 * without contrast (no ink at all) is not truncated.
 */
export function cropTruncated(input: { data: Float32Array; width: number }): boolean {
  const { data, width } = input;
  const height = data.length / width;
  const sorted = Float32Array.from(data).sort();
  const bg = sorted[Math.floor(sorted.length / 2)]!;
  const ink = sorted[Math.floor(sorted.length * 0.02)]!;
  if (bg - ink < 0.1) return false;
  const cut = bg - INK_SHARE * (bg - ink);
  const y0 = Math.floor(height * BAND.from);
  const y1 = Math.ceil(height * BAND.to);
  const inked = (x: number) => {
    let band = false;
    let rows = 0;
    for (let y = 0; y < height; y++) {
      if (data[y * width + x]! >= cut) continue;
      rows++;
      if (y >= y0 && y < y1) band = true;
    }
    return band && rows < STRAIGHT_EDGE_SHARE * height;
  };
  for (let c = 0; c < Math.min(EDGE_COLUMNS, width); c++) if (inked(c) || inked(width - 1 - c)) return true;
  return false;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
}

function formatOf(lines: string[]): MrzFormat | null {
  const f = (Object.keys(MRZ_LAYOUTS) as MrzFormat[]).find(
    (k) => MRZ_LAYOUTS[k].lineCount === lines.length && MRZ_LAYOUTS[k].lineLength === lines[0]!.length,
  );
  return f ?? null;
}

async function writeGreyPng(path: string, input: { data: Float32Array; width: number }): Promise<void> {
  const height = input.data.length / input.width;
  const px = Buffer.alloc(input.data.length);
  for (let i = 0; i < px.length; i++) px[i] = Math.max(0, Math.min(255, Math.round(input.data[i]! * 255)));
  await sharp(px, { raw: { width: input.width, height, channels: 1 } })
    .png()
    .toFile(path);
}

/**
 * The capture options a corpus item is exported with: with `hardShare`, a share of the items
 * (drawn from the item's own seed, a stream the corpus does not use, so the same items for
 * every shard and run) is captured at the `hard` level; every other option stays the corpus's.
 */
export function exportCaptureOptions(item: CorpusItem, hardShare = 0, fillerGlyphShare = 0): GenerateOptions {
  const options = { ...item.options };
  if (hardShare > 0 && rng(mix(item.seed, 9)).chance(hardShare)) options.level = 'hard';
  // Another stream of the item's seed: the hard draw stays as without this share.
  if (fillerGlyphShare > 0 && rng(mix(item.seed, 10)).chance(fillerGlyphShare)) options.fillerGlyph = true;
  return options;
}

export interface ExportOptions {
  out: string;
  count: number;
  seed: number;
  minutes?: number;
  /** Export only the documents whose index is `k` modulo `n` (processes sharing one export). */
  shard?: { k: number; n: number };
  /** Share of the documents captured at the `hard` level (exportCaptureOptions). */
  hardShare?: number;
  /** Leave out the crops whose row cut truncated glyphs (cropTruncated). */
  dropTruncated?: boolean;
  /**
   * Share of the documents whose MRZ fillers are drawn in another printer's shape
   * (synth/filler-glyph.ts): the '<' the recogniser reads as K, taught as '<'.
   */
  fillerGlyphShare?: number;
}

export async function exportMrzCrops(opts: ExportOptions): Promise<void> {
  await mkdir(opts.out, { recursive: true });
  const labels: string[] = [];
  const dropped: string[] = [];
  const labelFile = join(opts.out, opts.shard ? `labels-${opts.shard.k}.tsv` : 'labels.tsv');
  const droppedFile = join(opts.out, opts.shard ? `dropped-${opts.shard.k}.tsv` : 'dropped.tsv');
  const started = performance.now();
  let docs = 0;
  let exported = 0;
  let skipped = 0;
  for (const item of corpus(opts.count, opts.seed, 'tuning')) {
    if (opts.minutes && performance.now() - started > opts.minutes * 60_000) break;
    if (item.options.kind === 'niger_paper') continue; // no MRZ
    if (opts.shard && item.index % opts.shard.n !== opts.shard.k) continue;
    const doc = await generateDocument(
      item.seed,
      exportCaptureOptions(item, opts.hardShare, opts.fillerGlyphShare),
    );
    for (const shot of [doc, doc.back]) {
      const truth = shot?.truth.mrz;
      if (!shot || !truth) continue;
      if (shot.truth.heldOut) throw new Error(`held-out layout drawn: ${shot.truth.layouts.join('+')}`);
      const format = formatOf(truth);
      if (!format) continue;
      docs++;
      const img = await normalizeImage(new Uint8Array(shot.image));
      const view = await readDocumentPage(img);
      const block = mrzCandidates(view.page.lines).find(
        (c) =>
          c.format === format &&
          c.rows.length === truth.length &&
          c.rows.every(
            (r, i) => editDistance(r.mrz.text, truth[i]!) <= MAX_ROW_EDIT_SHARE * truth[i]!.length,
          ),
      );
      if (!block) {
        skipped++;
        continue;
      }
      const variants = modelBlockInputs(view.image, view.page, block.rows, format);
      for (let v = 0; v < variants.length; v++) {
        for (let l = 0; l < variants[v]!.length; l++) {
          const name = `${String(item.index).padStart(6, '0')}-${v}-${l}.png`;
          await writeGreyPng(join(opts.out, name), variants[v]![l]!);
          const row = `${name}\t${truth[l]}\t${item.index}\t${v}\t${l}`;
          if (opts.dropTruncated && cropTruncated(variants[v]![l]!)) dropped.push(row);
          else {
            labels.push(row);
            exported++;
          }
        }
      }
    }
    // Written as it goes: a run stopped early still leaves a usable folder.
    await writeFile(labelFile, `${labels.join('\n')}\n`);
    if (opts.dropTruncated) await writeFile(droppedFile, `${dropped.join('\n')}\n`);
    if (docs % 20 === 0)
      console.log(
        `${docs} MRZ images, ${skipped} without a matching block, ${exported} crops, ${dropped.length} truncated dropped, ${Math.round((performance.now() - started) / 1000)} s`,
      );
  }
  await writeFile(labelFile, `${labels.join('\n')}\n`);
  if (opts.dropTruncated) await writeFile(droppedFile, `${dropped.join('\n')}\n`);
  console.log(
    `done: ${docs} MRZ images (seed ${opts.seed}, tuning layouts, hard share ${opts.hardShare ?? 0}, filler-glyph share ${opts.fillerGlyphShare ?? 0}), ${skipped} without a matching block, ${exported} crops, ${dropped.length} truncated dropped -> ${opts.out}`,
  );
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  const out = arg('out');
  if (!out) throw new Error('--out=DIR is required');
  await exportMrzCrops({
    out,
    count: Number(arg('count') ?? 400),
    seed: Number(arg('seed') ?? 31),
    minutes: arg('minutes') ? Number(arg('minutes')) : undefined,
    shard: arg('shard')
      ? { k: Number(arg('shard')!.split('/')[0]), n: Number(arg('shard')!.split('/')[1]) }
      : undefined,
    hardShare: arg('hard-share') ? Number(arg('hard-share')) : undefined,
    fillerGlyphShare: arg('filler-glyph-share') ? Number(arg('filler-glyph-share')) : undefined,
    dropTruncated: process.argv.includes('--drop-truncated'),
  });
}
