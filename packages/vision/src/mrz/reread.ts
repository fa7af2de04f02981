import { MRZ_LAYOUTS, MRZ_LENGTH_TOLERANCE, type MrzFormat } from '@idv/core';
import type { Point, Quad, RgbImage } from '../image/raster.ts';
import { upperMedian } from '../image/stats.ts';
import { upscaleForOcr } from '../image/upscale.ts';
import type { PageReading } from '../ocr/page.ts';
import { cropLine, MRZ_STRETCH, REC_MAX_WIDTH, recognizeLines } from '../ocr/recognize.ts';
import { type CorrectedMrz, correctMrz, type MrzReadingLine } from './correct.ts';
import type { MrzRow } from './locate.ts';

/**
 * Second, dedicated reading of an MRZ band found by the page OCR. The MRZ is a left-aligned block
 * of equal-length lines, so every line is re-cropped over the block's full width (the detector
 * often stops before a long run of fillers or splits a line), with a few crop variants: two
 * vertical margins, and for small text a Lanczos-upscaled source. The variants are combined line
 * by line and the combination with the most check digits holding wins: the check digits,
 * not a heuristic, choose among readings.
 */

/**
 * Vertical crop heights relative to the detected line box: the page crop (1.0) is re-read with a
 * looser margin (1.25) at native size; small text is re-read instead from an upscaled copy.
 * Each variant costs one recognition per MRZ line, so they are kept few.
 */
const NATIVE_HEIGHT = 1.25;
const UPSCALED_HEIGHT = 1.0;
/** Lines whose box is shorter than this (px in the input image) are also read from an upscaled copy. */
const SMALL_TEXT_PX = 26;
/** Horizontal margin added on both ends of the block, in line heights. */
const SIDE_MARGIN = 0.35;

export interface RereadResult extends CorrectedMrz {
  format: MrzFormat;
  confidence: number;
  validCount: number;
  invalidCount: number;
}

export async function rereadMrz(
  img: RgbImage,
  page: PageReading,
  rows: MrzRow[],
  format: MrzFormat,
): Promise<RereadResult | null> {
  const L = MRZ_LAYOUTS[format];
  if (rows.length !== L.lineCount) return null;
  const h = upperMedian(rows.map((r) => r.height));
  const k = h < SMALL_TEXT_PX ? UPSCALED_HEIGHT : NATIVE_HEIGHT;
  // The lines that carry check digits are re-read: the check digits choose among their readings.
  // The name line keeps the page's reading here (when it is doubtful it gets its own vote
  // afterwards, name.ts), unless that reading is too short or long for the corrector to use
  // (the detector stopped before a long run of fillers).
  const checked = new Set<number>();
  for (const span of [L.documentNumber, L.dateOfBirth, L.dateOfExpiry, L.composite]) checked.add(span.line);
  const which = rows
    .map((_, i) => i)
    .filter(
      (i) => checked.has(i) || Math.abs(rows[i]!.mrz.text.length - L.lineLength) > MRZ_LENGTH_TOLERANCE,
    );
  const again = await readBlockLines(img, page, rows, which, [{ k, stretch: MRZ_STRETCH }]);
  const perLine: MrzReadingLine[][] = rows.map((r, i) => {
    const j = which.indexOf(i);
    // The page's own reading of each row stays a candidate too.
    return j >= 0 ? [...again[j]!, r.mrz] : [r.mrz];
  });

  let best: RereadResult | null = null;
  let bestScore = Number.NEGATIVE_INFINITY;
  const options = perLine.map((list) => topDistinct(list));
  for (const combo of combinations(options)) {
    const fixed = correctMrz(combo, format);
    if (!fixed || fixed.parsed.format !== format) continue;
    const validCount = fixed.parsed.checks.filter((c) => c.valid).length;
    const invalidCount = fixed.parsed.checks.length - validCount;
    const probs = combo.flatMap((l) => l.probs);
    const confidence = probs.length ? probs.reduce((s, p) => s + p, 0) / probs.length : 0;
    const lengthError = combo.reduce((s, l) => s + Math.abs(l.text.length - L.lineLength), 0);
    // Check digits first; then readings of the right length; then recogniser confidence.
    const score = -invalidCount * 10 - lengthError + confidence;
    if (score > bestScore) {
      bestScore = score;
      best = { ...fixed, format, confidence, validCount, invalidCount };
    }
  }
  return best;
}

/** One way of re-cropping an MRZ row: crop height relative to the row's box, horizontal stretch. */
export interface CropVariant {
  k: number;
  stretch: number;
}

/**
 * Re-reads the given rows of an MRZ block, each over the block's width (or its left part), once
 * per variant.
 * Small text is cropped from a Lanczos-upscaled copy. Returns the readings per requested row
 * (in the order of `which`).
 */
export async function readBlockLines(
  img: RgbImage,
  page: PageReading,
  rows: MrzRow[],
  which: number[],
  variants: CropVariant[],
  /** Share of the block's width to read, from its left edge (1: the whole line). */
  widthShare = 1,
): Promise<MrzReadingLine[][]> {
  const left = Math.min(...rows.map((r) => r.left));
  const right = left + widthShare * (Math.max(...rows.map((r) => r.right)) - left);
  const h = upperMedian(rows.map((r) => r.height));
  const src = h < SMALL_TEXT_PX ? await upscaleForOcr(img) : { image: img, factor: 1 };
  const crops: RgbImage[] = [];
  const owner: number[] = [];
  for (const v of variants) {
    const half = (h * v.k) / 2;
    const x0 = left - SIDE_MARGIN * h;
    const x1 = right + SIDE_MARGIN * h;
    which.forEach((rowIndex, i) => {
      const r = rows[rowIndex]!;
      const corners: Point[] = [
        [x0, r.y - half],
        [x1, r.y - half],
        [x1, r.y + half],
        [x0, r.y + half],
      ];
      const quad = corners.map((p) => {
        const [x, y] = page.toImage(p);
        return [x * src.factor, y * src.factor] as Point;
      }) as Quad;
      crops.push(cropLine(src.image, quad, REC_MAX_WIDTH * v.stretch, v.stretch));
      owner.push(i);
    });
  }
  const readings = await recognizeLines(crops);
  const perLine: MrzReadingLine[][] = which.map(() => []);
  readings.forEach((r, j) => {
    perLine[owner[j]!]!.push({ text: r.mrz.text, probs: r.mrz.chars.map((c) => c.prob) });
  });
  return perLine;
}

/** Distinct readings of one line, most confident first, at most MAX_PER_LINE (bounds the product). */
const MAX_PER_LINE = 3;
function topDistinct(list: MrzReadingLine[]): MrzReadingLine[] {
  const seen = new Map<string, MrzReadingLine>();
  for (const l of list) {
    const prev = seen.get(l.text);
    if (!prev || mean(l.probs) > mean(prev.probs)) seen.set(l.text, l);
  }
  return [...seen.values()].sort((a, b) => mean(b.probs) - mean(a.probs)).slice(0, MAX_PER_LINE);
}

function mean(xs: number[]): number {
  return xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0;
}

/** Cartesian product of the per-line candidates. */
function* combinations<T>(lists: T[][]): Generator<T[]> {
  if (lists.length === 0) {
    yield [];
    return;
  }
  const [first, ...rest] = lists;
  for (const head of first!) for (const tail of combinations(rest)) yield [head, ...tail];
}
