import { MRZ_LAYOUTS, type MrzFormat } from '@idv/core';
import type { Point, Quad, RgbImage } from '../image/raster.ts';
import { upscaleForOcr } from '../image/upscale.ts';
import type { PageReading } from '../ocr/page.ts';
import { cropLine, MRZ_STRETCH, REC_MAX_WIDTH, recognizeLines } from '../ocr/recognize.ts';
import { type RepairedMrz, repairChecks } from './check-repair.ts';
import { type ConstrainedLine, decodeConstrained } from './constrained-decode.ts';
import { greedyText, type LinePosteriors, mrzLineInput, mrzLinePosteriors } from './line-model.ts';
import type { MrzRow } from './locate.ts';
import { positionSets } from './positions.ts';

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

/** The quad of row `r` stretched over the block [left, right], in image pixels. */
function rowQuad(page: PageReading, r: MrzRow, left: number, right: number, h: number): Quad {
  const half = (h * ROW_HEIGHT_SHARE) / 2;
  const x0 = left - SIDE_MARGIN * h;
  const x1 = right + SIDE_MARGIN * h;
  const corners: Point[] = [
    [x0, r.y - half],
    [x1, r.y - half],
    [x1, r.y + half],
    [x0, r.y + half],
  ];
  return corners.map((p) => page.toImage(p)) as Quad;
}

/** Which recogniser reads the block: the project's MRZ model or PP-OCRv4 (restricted to A-Z 0-9 <). */
export type MrzRecogniser = 'model' | 'ppocr';

export async function readMrzBlock(
  img: RgbImage,
  page: PageReading,
  rows: MrzRow[],
  format: MrzFormat,
  recogniser: MrzRecogniser,
): Promise<ModelMrzReading | null> {
  const L = MRZ_LAYOUTS[format];
  if (rows.length !== L.lineCount) return null;
  const left = Math.min(...rows.map((r) => r.left));
  const right = Math.max(...rows.map((r) => r.right));
  const h = median(rows.map((r) => r.height));
  const quads = rows.map((r) => rowQuad(page, r, left, right, h));
  let posteriors: LinePosteriors[];
  if (recogniser === 'model') {
    posteriors = await mrzLinePosteriors(quads.map((q) => mrzLineInput(img, q)));
  } else {
    // Small text is cut from a Lanczos-upscaled copy (as the page reading does, upscale.ts).
    const src = h < SMALL_TEXT_PX ? await upscaleForOcr(img) : { image: img, factor: 1 };
    const scaled = quads.map((q) => q.map(([x, y]) => [x * src.factor, y * src.factor]) as Quad);
    const readings = await recognizeLines(
      scaled.map((q) => cropLine(src.image, q, REC_MAX_WIDTH * MRZ_STRETCH, MRZ_STRETCH)),
    );
    posteriors = readings.map((r) => r.mrzPosteriors);
  }
  return decodeMrzLines(posteriors, format);
}

/** Constrained decoding and check-digit repair of the posteriors of an MRZ's lines. */
export function decodeMrzLines(posteriors: LinePosteriors[], format: MrzFormat): ModelMrzReading | null {
  const french = format === 'TD2' && greedyText(posteriors[0]!).startsWith('IDFRA');
  const sets = positionSets(format, french);
  const decoded: ConstrainedLine[] = [];
  for (let i = 0; i < posteriors.length; i++) {
    const d = decodeConstrained(posteriors[i]!, sets[i]!);
    if (!d) return null;
    decoded.push(d);
  }
  const repaired = repairChecks(decoded, format);
  if (!repaired) return null;
  const probs = decoded.flatMap((d) => d.positions.map((q) => q.prob));
  const confidence = probs.reduce((s, p) => s + p, 0) / Math.max(1, probs.length);
  const invalidCount = repaired.parsed.checks.filter((c) => !c.valid).length;
  return { ...repaired, format, confidence, invalidCount, decoded };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}
