import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RgbImage } from '../../src/image/raster.ts';
import { warmUpOcr } from '../../src/ocr/models.ts';
import {
  EQUAL_WIDTHS,
  ONE_LINE_PER_RUN,
  PADDED_BATCHES,
  planBatches,
  REC_HEIGHT,
  recBatching,
  recognitionInput,
  recognizeLines,
  stepsCovering,
} from '../../src/ocr/recognize.ts';

/**
 * How recognizeLines groups line crops into model runs, and that the grouping does not change
 * what is read: lines drawn here (DejaVu Sans, dark on light paper) of different widths, two of
 * them exactly as wide, read by the real PP-OCR recogniser (no mock).
 */

/** A printed line at recognition height, `width` px wide (its own text width when omitted). */
async function drawLine(text: string, width?: number): Promise<RgbImage> {
  const w = width ?? Math.round(text.length * 15 + 24);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${REC_HEIGHT}"><rect width="100%" height="100%" fill="#f4f1e8"/><text x="10" y="33" font-family="DejaVu Sans" font-size="26" fill="#1c1c24">${text}</text></svg>`;
  const { data, info } = await sharp(Buffer.from(svg))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, rgb: new Uint8Array(data) };
}

const TEXTS = ['Surname', 'Date of birth', 'Place of issue', 'AUTHORITY 2031', 'Given names', 'Sex'];

let lines: RgbImage[];

beforeAll(async () => {
  await warmUpOcr();
  lines = await Promise.all([
    ...TEXTS.map((t) => drawLine(t)),
    // Two lines drawn exactly as wide: the default puts them in one run.
    drawLine('Nationality', 260),
    drawLine('Expiry date', 260),
  ]);
});

describe('planBatches', () => {
  it('puts every line in exactly one batch, narrowest first', () => {
    const widths = [300, 120, 300, 500, 130, 300];
    for (const b of [ONE_LINE_PER_RUN, EQUAL_WIDTHS, PADDED_BATCHES]) {
      const batches = planBatches(widths, b);
      expect(batches.flat().sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(widths[batches[0]![0]!]).toBe(120);
    }
  });
  it('one line per run, equal widths only, or within the width ratio', () => {
    const widths = [300, 120, 300, 500, 130, 300];
    expect(planBatches(widths, ONE_LINE_PER_RUN)).toHaveLength(6);
    expect(planBatches(widths, EQUAL_WIDTHS)).toEqual([[1], [4], [0, 2, 5], [3]]);
    // 130 ≤ 1.25 × 120; 500 > 1.25 × 300.
    expect(planBatches(widths, PADDED_BATCHES)).toEqual([[1, 4], [0, 2, 5], [3]]);
    expect(planBatches(widths, { maxLines: 2, widthRatio: 1 })).toEqual([[1], [4], [0, 2], [5], [3]]);
  });
  it('IDV_REC_BATCH=1 selects the padded batches, anything else equal widths', () => {
    expect(recBatching({ IDV_REC_BATCH: '1' })).toBe(PADDED_BATCHES);
    expect(recBatching({})).toBe(EQUAL_WIDTHS);
    expect(recBatching({ IDV_REC_BATCH: '0' })).toBe(EQUAL_WIDTHS);
  });
});

describe('the model input of a batch', () => {
  it('pads narrower lines on the right and decodes each over its own width', async () => {
    const a = await drawLine('Sex');
    const b = await drawLine('Date of birth');
    const { input, dims } = recognitionInput([a, b]);
    expect(dims).toEqual([2, 3, REC_HEIGHT, b.width]);
    const plane = REC_HEIGHT * b.width;
    // Line a's first pixel is its own; right of its width the row is padding (0).
    expect(input[0]).toBeCloseTo(a.rgb[0]! / 255, 6);
    expect(input[a.width]).toBe(0);
    expect(input[3 * plane]).toBeCloseTo(b.rgb[0]! / 255, 6);
    // 8 input px per output step: a line of 64 px in a 160 px input with 20 steps uses 8.
    expect(stepsCovering(64, 160, 20)).toBe(8);
    expect(stepsCovering(65, 160, 20)).toBe(9);
    expect(stepsCovering(160, 160, 20)).toBe(20);
  });
});

describe('recognition in batches vs one line per run (real model)', () => {
  it('the default (equal widths share a run) reads exactly what one line per run reads', async () => {
    const alone = await recognizeLines(lines, ONE_LINE_PER_RUN);
    const batched = await recognizeLines(lines, EQUAL_WIDTHS);
    expect(
      planBatches(
        lines.map((l) => l.width),
        EQUAL_WIDTHS,
      ).some((b) => b.length > 1),
    ).toBe(true);
    expect(alone.map((r) => r.full.text.trim())).toEqual([...TEXTS, 'Nationality', 'Expiry date']);
    expect(batched.map((r) => r.full.text)).toEqual(alone.map((r) => r.full.text));
    expect(batched.map((r) => r.mrz.text)).toEqual(alone.map((r) => r.mrz.text));
    for (const [i, r] of batched.entries())
      expect(r.full.confidence).toBeCloseTo(alone[i]!.full.confidence, 4);
  });
  it('padded batches read the same printed texts on clean lines of different widths', async () => {
    const alone = await recognizeLines(lines, ONE_LINE_PER_RUN);
    const padded = await recognizeLines(lines, { maxLines: 8, widthRatio: 3 });
    expect(
      planBatches(
        lines.map((l) => l.width),
        { maxLines: 8, widthRatio: 3 },
      ).length,
    ).toBeLessThan(lines.length);
    expect(padded.map((r) => r.full.text.trim())).toEqual(alone.map((r) => r.full.text.trim()));
  });
});
