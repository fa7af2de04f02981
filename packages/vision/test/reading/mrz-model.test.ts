import { existsSync } from 'node:fs';
import { MRZ_LAYOUTS, type MrzFormat, parseMrz } from '@idv/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { RgbImage } from '../../src/image/raster.ts';
import { decodeConstrained } from '../../src/mrz/constrained-decode.ts';
import { greedyText, MRZ_MODEL_PATH, mrzLineInput, mrzLinePosteriors } from '../../src/mrz/line-model.ts';
import { decodeMrzLines } from '../../src/mrz/model-read.ts';
import { positionSets } from '../../src/mrz/positions.ts';
import { readMrzOnly } from '../../src/mrz/read.ts';
import { escapeSvg, rasterizeSvg, renderMrzPage, wholeQuad } from '../support/mrz-page.ts';
import { SAHEL_CARD_ZONE as TD1, TD2_CARD_ZONE as TD2, PASSPORT_ZONE as TD3 } from '../support/mrz-zones.ts';

/**
 * The project's MRZ recogniser (training/mrz, weights committed at MRZ_MODEL_PATH) on MRZ lines
 * drawn here in OCR-B (Debian's fonts-ocr-b): the real model through the service's own input
 * rule and format-constrained decoder. Lines of the three formats read exactly, long filler runs
 * stay fillers (never K), lengths are the format's, and a wrongly printed check digit is not
 * "repaired" into validity.
 */

/** One MRZ line in OCR-B on a light, slightly textured strip, cropped with a small margin. */
async function renderLine(text: string, size = 40): Promise<RgbImage> {
  const pitch = size * 0.72;
  const width = Math.round(text.length * pitch + size);
  const height = Math.round(size * 1.5);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="#ece6d8"/>
    <path d="M0 ${height * 0.3} Q ${width / 2} ${height * 0.9} ${width} ${height * 0.2}" stroke="#d8cfc0" fill="none" stroke-width="2"/>
    <text x="${size / 2}" y="${Math.round(size * 1.1)}" font-family="OCR B" font-size="${size}" fill="#202020">${escapeSvg(text)}</text>
  </svg>`;
  return rasterizeSvg(svg);
}

const whole = wholeQuad;

/** The model's posteriors for rendered lines, sized by their character count (the service's rule). */
async function posteriorsOf(lines: string[], size?: number) {
  const inputs = [];
  for (const l of lines) {
    const img = await renderLine(l, size);
    inputs.push(mrzLineInput(img, whole(img), { chars: l.length }));
  }
  return mrzLinePosteriors(inputs, MRZ_MODEL_PATH);
}

async function readLines(lines: string[], format: MrzFormat, size?: number): Promise<string[]> {
  const posts = await posteriorsOf(lines, size);
  const sets = positionSets(format);
  return posts.map((p, i) => decodeConstrained(p, sets[i]!)?.text ?? '');
}

describe('the MRZ recogniser (training/mrz) on rendered OCR-B lines', () => {
  it('has its weights in the repository, under 1 MB', async () => {
    expect(existsSync(MRZ_MODEL_PATH)).toBe(true);
    const { size } = await import('node:fs').then((fs) => fs.statSync(MRZ_MODEL_PATH));
    expect(size).toBeGreaterThan(100_000);
    expect(size).toBeLessThan(1_000_000);
  });

  it.each([
    ['TD3', TD3],
    ['TD2', TD2],
    ['TD1', TD1],
  ] as const)('reads a %s zone exactly, at the format length', async (format, lines) => {
    const got = await readLines(lines, format);
    expect(got.map((l) => l.length)).toEqual(lines.map(() => MRZ_LAYOUTS[format].lineLength));
    expect(got).toEqual(lines);
  });

  it("keeps a digit as a card's document code second character (the issuer's choice)", async () => {
    // With letters only there, the decoder read such a code's 1 as T. A letter or filler there
    // stays one (the zone's own ID).
    for (const code of ['I1', 'C2', 'ID']) {
      const lines = [`${code}${TD1[0]!.slice(2)}`, TD1[1]!, TD1[2]!];
      expect(decodeMrzLines(await posteriorsOf(lines), 'TD1')?.lines).toEqual(lines);
    }
  });

  it('reads lines exactly without any format constraint too (greedy CTC)', async () => {
    const posts = await posteriorsOf([TD3[1]!, TD1[0]!]);
    expect(posts.map(greedyText)).toEqual([TD3[1]!, TD1[0]!]);
  });

  it('never reads long filler runs as K, at small and large print', async () => {
    const line = `P<NERKOKKO<<KAKA<K${'<'.repeat(26)}`;
    for (const size of [24, 56]) {
      const got = await readLines([line, TD3[1]!], 'TD3', size);
      expect(got[0]).toBe(line);
      const [post] = await posteriorsOf([line], size);
      const greedy = greedyText(post!);
      // Without constraint the line keeps its length: no filler dropped, merged or read as K.
      expect(greedy).toBe(line);
    }
  });

  it('leaves a wrongly printed check digit wrong: the check fails', async () => {
    const at = MRZ_LAYOUTS.TD3.dateOfBirthCheck.start;
    const line = [...TD3[1]!];
    line[at] = String((Number(line[at]) + 3) % 10);
    const printed = [TD3[0]!, line.join('')];
    const reading = decodeMrzLines(await posteriorsOf(printed), 'TD3');
    expect(reading).not.toBeNull();
    expect(reading!.lines).toEqual(printed);
    expect(reading!.corrected).toBe(false);
    const parsed = parseMrz(reading!.lines)!;
    expect(parsed.checks.find((c) => c.name === 'date_of_birth')!.valid).toBe(false);
    expect(parsed.valid).toBe(false);
  });
});

/** A light page with a heading and the MRZ lines at its bottom, as the service receives a photo. */
const renderPage = (lines: string[], width = 1400) =>
  renderMrzPage(lines, { width, title: 'REPUBLIQUE DU NIGER' });

describe('the service reading a page with the MRZ model (IDV_MRZ_READER=model)', () => {
  const before = process.env.IDV_MRZ_READER;
  afterEach(() => {
    if (before === undefined) delete process.env.IDV_MRZ_READER;
    else process.env.IDV_MRZ_READER = before;
  });

  it('reads a card exactly and leaves a wrongly printed check digit failing', async () => {
    process.env.IDV_MRZ_READER = 'model';
    const got = await readMrzOnly(await renderPage(TD1, 1100));
    expect(got?.lines).toEqual(TD1);
    const at = MRZ_LAYOUTS.TD1.dateOfExpiryCheck.start;
    const line = [...TD1[1]!];
    line[at] = String((Number(line[at]) + 5) % 10);
    const printed = [TD1[0]!, line.join(''), TD1[2]!];
    const wrong = await readMrzOnly(await renderPage(printed, 1100));
    expect(wrong?.lines).toEqual(printed);
    expect(parseMrz(wrong!.lines)!.checks.find((c) => c.name === 'date_of_expiry')!.valid).toBe(false);
  });
});
