import { MRZ_LAYOUTS, type MrzFormat } from '@idv/core';
import type { Point, Quad, RgbImage } from '../image/raster.ts';
import { upperMedian } from '../image/stats.ts';
import { upscaleForOcr } from '../image/upscale.ts';
import type { PageReading } from '../ocr/page.ts';
import { cropLine, MRZ_STRETCH, REC_MAX_WIDTH, recognizeLines } from '../ocr/recognize.ts';
import { noteDecision, profiled } from '../runtime/profile.ts';
import { type RepairedMrz, repairChecks } from './check-repair.ts';
import { type ConstrainedLine, decodeConstrained, type PositionReading } from './constrained-decode.ts';
import { restoreFillers } from './filler-k.ts';
import { greedyText, type LinePosteriors, mrzLineInput, mrzLinePosteriors } from './line-model.ts';
import type { MrzRow } from './locate.ts';
import { clearStrayNameLetters } from './name-tail.ts';
import { positionSets, withCardCodeDigit } from './positions.ts';
import { type Resampling, resampledLines, smallGlyphsMeasured } from './small-glyphs.ts';

/**
 * Reads an MRZ block found on the page with the project's MRZ recogniser (line-model.ts): every
 * row is cut over the block's full width (the detector often stops before a run of fillers),
 * decoded under its format's position sets with exact length, and check digits then choose among
 * the recogniser's own alternatives (check-repair.ts).
 */

/** Crop height relative to the detected row height (the training crops range ~1.0-1.9 × cap height). */
export const ROW_HEIGHT_SHARE = 1.3;
/** Rows shorter than this (px) are read by PP-OCR from an upscaled copy (as in reread.ts). */
const SMALL_TEXT_PX = 26;
/** Horizontal margin added on both ends of the block, in row heights. */
const SIDE_MARGIN = 0.5;

export interface ModelMrzReading extends RepairedMrz {
  format: MrzFormat;
  /** Mean probability of the chosen characters. */
  confidence: number;
  invalidCount: number;
  /** The decoded lines before check-digit repair. */
  decoded: ConstrainedLine[];
}

/**
 * One way of cutting the block's rows: height relative to the row box, PP-OCR horizontal
 * stretch, and for the MRZ model a factor on the line's natural input width (line-model.ts).
 */
interface Variant {
  k: number;
  stretch: number;
  scale?: number;
  /** Vertical offset of the crop, in row heights (down when positive). */
  shift?: number;
  /** For the MRZ model: the lines read from a resampled copy of the block (small-glyphs.ts). */
  resample?: Resampling;
}

/**
 * The first reading uses BASE; when it leaves a check failing or a name character in doubt, the
 * rows are read again with EXTRA crops and every position is voted on (exact lengths make the
 * readings position-aligned). The stretch changes how many recogniser steps a character gets
 * (1.3 tends to drop narrow letters, 2.0 to split wide ones), the height the margin.
 */
const BASE: Variant = { k: ROW_HEIGHT_SHARE, stretch: MRZ_STRETCH };
const EXTRA: Variant[] = [
  { k: 1.0, stretch: 1.3 },
  { k: 1.0, stretch: 2.0 },
];
/**
 * The MRZ model's crops: natural aspect kept within the training lines' spacing for the
 * format's character count (line-model.ts); the extra readings change the margin and the
 * spacing, tighter and looser.
 */
const MODEL_BASE: Variant = { k: ROW_HEIGHT_SHARE, stretch: 1 };
const MODEL_EXTRA: Variant[] = [
  { k: 1.0, stretch: 1, scale: 0.9 },
  { k: 1.6, stretch: 1, scale: 1.1 },
];
/**
 * On small glyphs (small-glyphs.ts) the vote adds readings of the MRZ model on the base crop
 * sampled other ways: from a Lanczos-upscaled copy (box-averaged down rather than bilinear), the
 * same copy with a mild unsharp mask, the crop shifted an eighth of a row up and down, and a
 * taller crop. On 7-8 px glyphs each of them misreads a few characters, mostly different ones.
 * They are combined with the model's base reading into ONE model reading (each decoded under
 * the format, then their probabilities averaged per position) before it meets PP-OCR's: voted
 * as separate readings they outnumbered PP-OCR and turned two right names wrong (issue 13,
 * decisions.md).
 */
const SMALL_MODEL: Variant[] = [
  { ...MODEL_BASE, resample: { sharpen: 0 } },
  { ...MODEL_BASE, resample: { sharpen: 0.6 } },
  { ...MODEL_BASE, shift: -0.12 },
  { ...MODEL_BASE, shift: 0.12 },
  { k: 1.6, stretch: 1 },
];
/** A name-line character below this probability makes the reading doubtful (as in name.ts). */
const DOUBT = 0.7;
/**
 * PP-OCRv4 was never trained on OCR-B filler runs and reads a '<' as K with real probability
 * (filler runs read as KK, a name joined by K instead of <). Its '<' probability is
 * weighted by this factor where a letter could stand instead, a calibration of that recogniser:
 * a clear K (p ≈ 0.99 against '<' ≈ 0.001) is untouched, a K at 0.6 against '<' at 0.3 turns
 * back into a filler. Set a priori at 3, not fitted (the tuning half has no such misread).
 */
export const PPOCR_FILLER_WEIGHT = 3;

/** The quad of row `r` stretched over the block [left, right], in image pixels. */
function rowQuad(
  page: PageReading,
  r: MrzRow,
  left: number,
  right: number,
  h: number,
  k: number,
  shift = 0,
): Quad {
  const half = (h * k) / 2;
  const y = r.y + shift * h;
  const x0 = left - SIDE_MARGIN * h;
  const x1 = right + SIDE_MARGIN * h;
  const corners: Point[] = [
    [x0, y - half],
    [x1, y - half],
    [x1, y + half],
    [x0, y + half],
  ];
  return corners.map((p) => page.toImage(p)) as Quad;
}

/**
 * Which recogniser reads the block: the project's MRZ model, PP-OCRv4 (restricted to A-Z 0-9 <),
 * or both, their format-constrained readings voted position by position.
 */
export type MrzRecogniser = 'model' | 'ppocr' | 'both';
type Source = 'model' | 'ppocr';

/** The posteriors of the block's rows by one recogniser, with one crop variant. */
interface BlockReading {
  source: Source;
  posts: LinePosteriors[];
  /** Readings of one group are combined into one before the vote (SMALL_MODEL). */
  group?: string;
}
const SMALL_GROUP = 'model-small';

async function blockPosteriors(
  img: RgbImage,
  page: PageReading,
  rows: MrzRow[],
  source: Source,
  v: Variant,
  chars: number,
): Promise<BlockReading> {
  const left = Math.min(...rows.map((r) => r.left));
  const right = Math.max(...rows.map((r) => r.right));
  const h = upperMedian(rows.map((r) => r.height));
  const quads = rows.map((r) => rowQuad(page, r, left, right, h, v.k, v.shift));
  if (source === 'model') {
    const src = v.resample ? await resampledLines(img, quads, v.resample) : { image: img, quads };
    const inputs = src.quads.map((q) => mrzLineInput(src.image, q, { chars, scale: v.scale }));
    return { source, posts: await mrzLinePosteriors(inputs) };
  }
  // Small text is cut from a Lanczos-upscaled copy (as the page reading does, upscale.ts).
  const src = h < SMALL_TEXT_PX ? await upscaleForOcr(img) : { image: img, factor: 1 };
  const scaled = quads.map((q) => q.map(([x, y]) => [x * src.factor, y * src.factor]) as Quad);
  const readings = await recognizeLines(
    scaled.map((q) => cropLine(src.image, q, REC_MAX_WIDTH * v.stretch, v.stretch)),
  );
  return { source, posts: readings.map((r) => r.mrzPosteriors) };
}

/**
 * The block's rows read by `recogniser`, decoded under the format and repaired by check digits;
 * profiled as one step (its model runs are counted apart, runtime/profile.ts). With
 * `firstOnly`, the first crops' reading as it is, without the extra crops' vote (a quick look
 * that anything less than sure sends the full way, mrz/read.ts settledByModel).
 */
export async function readMrzBlock(
  img: RgbImage,
  page: PageReading,
  rows: MrzRow[],
  format: MrzFormat,
  recogniser: MrzRecogniser,
  firstOnly = false,
): Promise<ModelMrzReading | null> {
  return profiled('step', `mrz-read-${recogniser}`, format, () =>
    readBlock(img, page, rows, format, recogniser, firstOnly),
  );
}

async function readBlock(
  img: RgbImage,
  page: PageReading,
  rows: MrzRow[],
  format: MrzFormat,
  recogniser: MrzRecogniser,
  firstOnly: boolean,
): Promise<ModelMrzReading | null> {
  const L = MRZ_LAYOUTS[format];
  if (rows.length !== L.lineCount) return null;
  // The page reading's own posteriors come free: when every row is one page line of about the
  // right length and reads without doubt, nothing is read again.
  const pageRows = rows.map((r) => r.posteriors);
  if (
    recogniser === 'ppocr' &&
    pageRows.every((p, i) => p && Math.abs(rows[i]!.mrz.text.length - L.lineLength) <= 1)
  ) {
    const fromPage = decodeAll(
      pageRows as LinePosteriors[],
      lineSets(pageRows as LinePosteriors[], format),
      PPOCR_FILLER_WEIGHT,
    );
    const r = fromPage && finish(fromPage, format);
    if (r && r.invalidCount === 0 && !doubtful(fromPage, format)) return r;
  }
  const sources: Source[] = recogniser === 'both' ? ['model', 'ppocr'] : [recogniser];
  const read = (source: Source, v: Variant) => blockPosteriors(img, page, rows, source, v, L.lineLength);
  // One recogniser after the other, not side by side: on 2 cores running both at once was
  // measured no faster, and sequential runs let the profile attribute each its own time.
  const first: BlockReading[] = [];
  for (const s of sources) first.push(await read(s, s === 'model' ? MODEL_BASE : BASE));
  const sets = lineSets(first[first.length - 1]!.posts, format);
  // Small glyphs in the vote: the model's base reading and its resampled readings become one.
  // The 'model' reader alone (the cascade's first look) is left as it is: on small glyphs the
  // cascade never stops on it (read.ts configuredStop), so the added readings belong to the vote.
  if (recogniser === 'both' && !firstOnly && smallGlyphsMeasured(img, page, rows)) {
    first[0]!.group = SMALL_GROUP;
    for (const v of SMALL_MODEL) first.push({ ...(await read('model', v)), group: SMALL_GROUP });
  }
  const decoded = decodeVote(first, sets, L.name.line, PPOCR_FILLER_WEIGHT);
  if (!decoded) return null;
  const once = finish(decoded, format);
  if (firstOnly || (once && once.invalidCount === 0 && !doubtful(decoded, format))) return once;
  const all = [...first];
  for (const s of sources) {
    for (const v of s === 'model' ? MODEL_EXTRA : EXTRA) all.push(await read(s, v));
  }
  // The name line is decoded again with a stronger filler weight only while its field lacks
  // the '<<' every ICAO name field has (NAME_FILLER_WEIGHTS).
  let voted: ConstrainedLine[] | null = null;
  for (const nameWeight of recogniser === 'model' ? [1] : NAME_FILLER_WEIGHTS) {
    voted = decodeVote(all, sets, L.name.line, nameWeight);
    if (!voted || !nameFieldMalformed(voted, format)) break;
  }
  return voted ? finish(voted, format) : once;
}

/**
 * Filler weights tried in turn on the name line when its name field has no '<<' at all: ICAO
 * writes surname '<<' given names and pads the field with '<', so a field without '<<' (a name
 * exactly filling it aside) means fillers were read as letters (a name ending in KKKK where < belongs).
 */
const NAME_FILLER_WEIGHTS = [PPOCR_FILLER_WEIGHT, 10, 30, 100];

function nameFieldMalformed(decoded: ConstrainedLine[], format: MrzFormat): boolean {
  const { name } = MRZ_LAYOUTS[format];
  return !decoded[name.line]!.text.slice(name.start, name.end).includes('<<');
}

/**
 * Every reading decoded under the position sets, then voted position by position. PP-OCR's
 * readings get its filler calibration (PPOCR_FILLER_WEIGHT, `nameWeight` on the name line);
 * the MRZ model was trained on fillers and is decoded as it is.
 */
function decodeVote(
  readings: BlockReading[],
  sets: string[][],
  nameLine: number,
  nameWeight: number,
): ConstrainedLine[] | null {
  const lines: ConstrainedLine[][] = sets.map(() => []);
  const grouped = new Map<string, ConstrainedLine[][]>();
  for (const r of readings) {
    const into = r.group ? grouped.get(r.group) : lines;
    const target = into ?? sets.map(() => []);
    if (r.group && !into) grouped.set(r.group, target);
    for (let i = 0; i < sets.length; i++) {
      const ppocr = r.source === 'ppocr';
      const fillerWeight = !ppocr ? 1 : i === nameLine ? nameWeight : PPOCR_FILLER_WEIGHT;
      const d = decodeConstrained(r.posts[i]!, sets[i]!, { fillerWeight });
      if (d) target[i]!.push(d);
    }
  }
  // A group counts as one reading: its lines voted among themselves first.
  for (const g of grouped.values()) {
    g.forEach((l, i) => {
      if (l.length > 0) lines[i]!.push(l.length === 1 ? l[0]! : voteLine(l));
    });
  }
  if (lines.some((l) => l.length === 0)) return null;
  return lines.map((l) => (l.length === 1 ? l[0]! : voteLine(l)));
}

/** A name character read below DOUBT (no check digit covers the names). */
function doubtful(decoded: ConstrainedLine[], format: MrzFormat): boolean {
  const { name } = MRZ_LAYOUTS[format];
  return (
    nameFieldMalformed(decoded, format) ||
    decoded[name.line]!.positions.slice(name.start, name.end).some((q) => q.prob < DOUBT)
  );
}

/** Per-position vote of equally long readings: each allowed character's probabilities summed. */
export function voteLine(readings: ConstrainedLine[]): ConstrainedLine {
  const n = readings[0]!.positions.length;
  const positions: PositionReading[] = [];
  for (let i = 0; i < n; i++) {
    const score = new Map<string, number>();
    for (const r of readings) {
      const q = r.positions[i]!;
      score.set(q.char, (score.get(q.char) ?? 0) + q.prob);
      for (const a of q.alternatives) score.set(a.char, (score.get(a.char) ?? 0) + a.prob);
    }
    const ranked = [...score.entries()]
      .map(([char, s]) => ({ char, prob: s / readings.length }))
      .sort((a, b) => b.prob - a.prob);
    positions.push({ char: ranked[0]!.char, prob: ranked[0]!.prob, alternatives: ranked.slice(1) });
  }
  return {
    text: positions.map((q) => q.char).join(''),
    positions,
    logProb: readings.reduce((s, r) => s + r.logProb, 0) / readings.length,
  };
}

function lineSets(posteriors: LinePosteriors[], format: MrzFormat): string[][] {
  const head = greedyText(posteriors[0]!);
  if (format === 'TD2' && head.startsWith('IDFRA')) return positionSets(format, 'fra-legacy');
  const sets = positionSets(format, head.startsWith('V') ? 'visa' : 'icao');
  // A card's code read with a digit second (positions.ts withCardCodeDigit).
  return format !== 'TD3' && /^[A-Z][0-9]/.test(head) ? withCardCodeDigit(sets) : sets;
}

function decodeAll(
  posteriors: LinePosteriors[],
  sets: string[][],
  fillerWeight = 1,
): ConstrainedLine[] | null {
  const decoded: ConstrainedLine[] = [];
  for (let i = 0; i < posteriors.length; i++) {
    const d = decodeConstrained(posteriors[i]!, sets[i]!, { fillerWeight });
    if (!d) return null;
    decoded.push(d);
  }
  return decoded;
}

function finish(decoded: ConstrainedLine[], format: MrzFormat): ModelMrzReading | null {
  const repaired = repairChecks(withFillers(decoded, format), format);
  if (!repaired) return null;
  const probs = decoded.flatMap((d) => d.positions.map((q) => q.prob));
  const confidence = probs.reduce((s, p) => s + p, 0) / Math.max(1, probs.length);
  const invalidCount = repaired.parsed.checks.filter((c) => !c.valid).length;
  return { ...repaired, format, confidence, invalidCount, decoded };
}

/**
 * The lines with fillers read as K restored (filler-k.ts): no check digit can tell a K from a
 * '<', so ICAO's layout and the recogniser's own '<' support decide, before the repair; then
 * stray letters in the names' padding cleared (name-tail.ts). The
 * profile records every K looked at, with its '<' support (measurement only).
 */
function withFillers(decoded: ConstrainedLine[], format: MrzFormat): ConstrainedLine[] {
  const { lines, considered } = restoreFillers(decoded, format);
  if (considered.length > 0) {
    const each = considered.map((c) => `${c.line}:${c.at} ${c.support.toFixed(3)}${c.changed ? '>' : ''}`);
    noteDecision('mrz-repair', `fillers: ${each.join(', ')}`);
  }
  // Letters in the names' padding after a second '<<' (name-tail.ts): the layout's rule too.
  const tail = clearStrayNameLetters(lines, format);
  if (tail.cleared.length > 0) noteDecision('mrz-repair', `name padding: ${tail.cleared.join(', ')}`);
  return tail.lines;
}

/** Constrained decoding and check-digit repair of the posteriors of an MRZ's lines. */
export function decodeMrzLines(posteriors: LinePosteriors[], format: MrzFormat): ModelMrzReading | null {
  const decoded = decodeAll(posteriors, lineSets(posteriors, format));
  return decoded ? finish(decoded, format) : null;
}

/**
 * The page reading's text of each row of a block, position-aligned with the format's lines: a
 * row's restricted page reading (PP-OCR's, already computed for the page, no extra model run)
 * only counts when it has exactly the line's length, since a dropped or doubled filler shifts
 * every position after it. Null for a row whose page reading does not align.
 */
export function pageMrzLines(rows: MrzRow[], format: MrzFormat): (string | null)[] {
  const n = MRZ_LAYOUTS[format].lineLength;
  return rows.map((r) => (r.mrz.text.length === n ? r.mrz.text : null));
}

/**
 * The exact grey 32-px inputs the MRZ model gets for a block's rows, per crop variant (MODEL_BASE
 * then MODEL_EXTRA, as blockPosteriors cuts them): what the training crops are exported from
 * (scripts/eval/export-mrz-crops.ts), so that training sees the service's own cuts.
 */
export function modelBlockInputs(
  img: RgbImage,
  page: PageReading,
  rows: MrzRow[],
  format: MrzFormat,
): { data: Float32Array; width: number }[][] {
  const chars = MRZ_LAYOUTS[format].lineLength;
  const left = Math.min(...rows.map((r) => r.left));
  const right = Math.max(...rows.map((r) => r.right));
  const h = upperMedian(rows.map((r) => r.height));
  return [MODEL_BASE, ...MODEL_EXTRA].map((v) =>
    rows.map((r) => mrzLineInput(img, rowQuad(page, r, left, right, h, v.k), { chars, scale: v.scale })),
  );
}
