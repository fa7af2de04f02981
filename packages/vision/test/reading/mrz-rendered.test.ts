import { MRZ_LAYOUTS, parseMrz } from '@idv/core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { normalizeImage } from '../../src/image/normalize.ts';
import { readMrzOnly } from '../../src/mrz/read.ts';
import { warmUp } from '../../src/read-document.ts';
import { SAHEL_CARD_ZONE as CARD, PASSPORT_ZONE as PASSPORT } from '../support/mrz-zones.ts';

/**
 * The MRZ reader on MRZ zones drawn here in OCR-B (Debian's fonts-ocr-b, as printed MRZs are):
 * exact line lengths, fillers never read as K in long runs, and a wrongly printed check digit
 * left wrong. Real models, no mocks; the images are made by the test.
 */

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** A light card or page with the MRZ lines at its bottom, optionally turned by quarter turns. */
async function renderMrz(lines: string[], opts: { width?: number; quarterTurns?: number } = {}) {
  const width = opts.width ?? 1700;
  const size = Math.round((width - 120) / (lines[0]!.length * 0.75));
  const height = Math.round(width * 0.7);
  const top = height - 60 - lines.length * size * 1.45;
  const text = lines
    .map(
      (l, i) =>
        `<text x="60" y="${Math.round(top + (i + 1) * size * 1.45)}" font-family="OCR B" font-size="${size}" fill="#1a1a1a">${esc(l)}</text>`,
    )
    .join('');
  const decor = `<text x="60" y="${Math.round(height * 0.15)}" font-family="DejaVu Sans" font-size="${Math.round(size * 0.9)}" fill="#333">REPUBLIC OF NIGER</text><rect x="60" y="${Math.round(height * 0.22)}" width="${Math.round(width * 0.22)}" height="${Math.round(height * 0.4)}" fill="#c9c2b8"/>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#efe9dc"/>${decor}${text}</svg>`;
  let img = sharp(Buffer.from(svg));
  if (opts.quarterTurns) img = sharp(await img.png().toBuffer()).rotate(90 * opts.quarterTurns);
  return normalizeImage(new Uint8Array(await img.png().toBuffer()));
}

/**
 * A wrongly printed digit makes every reader run (the cascade's model, both recognisers, the
 * legacy re-read), and a small upside-down scan takes the second look: slow on a loaded machine.
 */
const SLOW = { timeout: 240_000 };

beforeAll(async () => {
  await warmUp();
});

describe('MRZ reading of rendered OCR-B zones', () => {
  it('reads a TD3 zone with long filler runs exactly: lengths exact, no filler read as K', async () => {
    const got = await readMrzOnly(await renderMrz(PASSPORT));
    expect(got).not.toBeNull();
    expect(got!.lines.map((l) => l.length)).toEqual([44, 44]);
    for (let i = 0; i < 2; i++) {
      for (let k = 0; k < 44; k++) if (PASSPORT[i]![k] === '<') expect(got!.lines[i]![k]).toBe('<');
    }
    expect(got!.lines).toEqual(PASSPORT);
  });

  it('reads a TD1 card with a 17-digit number continued in the optional data', async () => {
    const got = await readMrzOnly(await renderMrz(CARD, { width: 1200 }));
    expect(got!.lines.map((l) => l.length)).toEqual([30, 30, 30]);
    expect(got!.lines).toEqual(CARD);
  });

  it('leaves a wrongly printed check digit wrong: the check fails', SLOW, async () => {
    const at = MRZ_LAYOUTS.TD3.dateOfBirthCheck.start;
    const line = [...PASSPORT[1]!];
    line[at] = String((Number(line[at]) + 4) % 10);
    const printed = [PASSPORT[0]!, line.join('')];
    const got = await readMrzOnly(await renderMrz(printed));
    expect(got!.lines).toEqual(printed);
    const parsed = parseMrz(got!.lines)!;
    expect(parsed.checks.find((c) => c.name === 'date_of_birth')!.valid).toBe(false);
    expect(parsed.valid).toBe(false);
  });

  it('finds and reads the zone on a small scan (450 px wide) and upside down', SLOW, async () => {
    const small = await readMrzOnly(await renderMrz(CARD, { width: 450 }));
    expect(small?.lines).toEqual(CARD);
    const flipped = await readMrzOnly(await renderMrz(PASSPORT, { quarterTurns: 2 }));
    expect(flipped?.lines).toEqual(PASSPORT);
  });
});
