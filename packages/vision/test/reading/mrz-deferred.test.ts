import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { type NormalizedImage, normalizeImage } from '../../src/image/normalize.ts';
import { mrzFromPage } from '../../src/mrz/read.ts';
import { readDocumentPage } from '../../src/ocr/focus.ts';
import { warmUp } from '../../src/read-document.ts';
import { decisionCounts, startProfile, stopProfile } from '../../src/runtime/profile.ts';
import { escapeSvg, renderMrzPage } from '../support/mrz-page.ts';
import { PASSPORT_ZONE } from '../support/mrz-zones.ts';

/**
 * The page reading leaves the MRZ-like rows to the MRZ reader (page.ts deferMrzRows): the MRZ
 * model's sure reading settles them without their PP-OCR reading; when the cascade votes, or no
 * MRZ is there, they are read on demand, once. Counted by the page's own decisions
 * (runtime/profile.ts), with the real models on pages drawn here.
 */

/** Each test reads whole pages with the real models (slow on a loaded machine, not timed). */
const SLOW = { timeout: 240_000 };

beforeAll(async () => {
  await warmUp();
});

/** A page's printed headings and labels above its last lines (the page's other text). */
const HEADINGS = ['REPUBLIQUE DU NIGER', 'Nom / Surname', 'Date de naissance', 'Lieu de naissance'];

/**
 * Lines on a light page in `font`, stacked at the bottom as an MRZ is, below HEADINGS;
 * `spread` is the font size's share of the width per character.
 */
async function renderLines(
  lines: string[],
  font: string,
  spread: number,
  width = 1700,
): Promise<NormalizedImage> {
  const size = Math.round((width - 120) / (Math.max(...lines.map((l) => l.length)) * spread));
  const height = Math.round(width * 0.7);
  const top = height - 60 - lines.length * size * 1.45;
  const text = lines
    .map(
      (l, i) =>
        `<text x="60" y="${Math.round(top + (i + 1) * size * 1.45)}" font-family="${font}" font-size="${size}" fill="#1a1a1a">${escapeSvg(l)}</text>`,
    )
    .join('');
  const headings = HEADINGS.map(
    (t, i) =>
      `<text x="${i ? 600 : 60}" y="${Math.round(height * (0.12 + 0.1 * i))}" font-family="DejaVu Sans" font-size="${Math.round(size * 0.9)}" fill="#333">${t}</text>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#efe9dc"/>${headings}${text}</svg>`;
  return normalizeImage(new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer()));
}

/** The MRZ of a page read with its rows deferred, the rows' fate counted, and the page. */
async function readDeferred(img: NormalizedImage) {
  const view = await readDocumentPage(img, { deferMrzRows: true });
  const deferredBefore = view.page.lines.filter((l) => l.deferred).length;
  startProfile();
  const mrz = await mrzFromPage(view.image, view.page);
  const events = stopProfile();
  const rows = Object.fromEntries(decisionCounts(events, 'mrz-row-ocr'));
  const cascade = decisionCounts(events, 'mrz-cascade').map(([d]) => d);
  return { mrz, page: view.page, deferredBefore, rows, cascade };
}

describe('MRZ rows read on demand', () => {
  it('an OCR-B zone: the model settles the rows, PP-OCR never reads them', SLOW, async () => {
    const got = await readDeferred(await renderMrzPage(PASSPORT_ZONE, { title: 'Passeport / Passport' }));
    expect(got.deferredBefore).toBe(2);
    expect(got.mrz?.lines).toEqual(PASSPORT_ZONE);
    expect(got.cascade).toEqual(['stopped sure']);
    expect(got.rows).toEqual({ 'settled by the MRZ model': 2 });
    // The settled lines carry the MRZ as read, for the page's other readers.
    const texts = got.mrz!.lineIndexes.map((i) => got.page.lines[i]!.text);
    expect(texts).toEqual(PASSPORT_ZONE);
    expect(got.page.lines.some((l) => l.deferred)).toBe(false);
  });

  it('a zone the model is unsure of: the vote reads the rows once, as without deferring', SLOW, async () => {
    const img = await renderLines(PASSPORT_ZONE, 'DejaVu Sans Mono', 0.75);
    const got = await readDeferred(img);
    expect(got.deferredBefore).toBe(2);
    expect(got.cascade.some((d) => d.startsWith('voted'))).toBe(true);
    expect(got.rows).toEqual({ 'read on demand': 2 });
    const plain = await readDocumentPage(img);
    const before = await mrzFromPage(plain.image, plain.page);
    expect(got.mrz?.lines).toEqual(before?.lines);
    expect(got.page.lines.map((l) => l.text)).toEqual(plain.page.lines.map((l) => l.text));
  });

  it('stacked printed lines: no MRZ invented, the lines read for the page', SLOW, async () => {
    const printed = [
      'Le titulaire de ce document est prie de le presenter a toute requisition',
      'The bearer of this document is requested to show it on every demand',
    ];
    const got = await readDeferred(await renderLines(printed, 'DejaVu Sans', 0.62));
    expect(got.deferredBefore).toBe(2);
    expect(got.mrz).toBeNull();
    expect(got.rows).toEqual({ 'read on demand': 2 });
    expect(got.page.lines.every((l) => l.text.length > 0)).toBe(true);
  });
});
