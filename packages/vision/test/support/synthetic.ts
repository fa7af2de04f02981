import { buildMrz } from '@idv/core';
import sharp, { type Sharp } from 'sharp';
import { warpQuad } from '../../src/image/raster.ts';

/**
 * Synthetic document photos for tests (the project's tests never read the shared fixtures):
 * a data page or card drawn with SVG text (labels, values, MRZ in a monospaced font), then
 * degraded like a phone capture: placed on a background, rotated, blurred, noised, JPEG-compressed.
 */

export interface Holder {
  surname: string;
  givenNames: string;
  /** YYMMDD */
  birth: string;
  /** YYMMDD */
  expiry: string;
  sex: 'M' | 'F';
  number: string;
  country: string;
}

export const HOLDER: Holder = {
  surname: 'DIALLO',
  givenNames: 'AMINATA',
  birth: '870412',
  expiry: '310925',
  sex: 'F',
  number: 'NE1234567',
  country: 'NER',
};

export type Layout = 'passport' | 'cni_back' | 'cni_front' | 'niger_paper' | 'plain';

export interface CaptureOptions {
  /** Clockwise quarter turns of the whole photo. */
  quarterTurns?: 0 | 1 | 2 | 3;
  /** Small tilt in degrees (a hand-held capture). */
  tiltDegrees?: number;
  /** Gaussian blur sigma in px of the final photo. */
  blur?: number;
  /** Additive noise amplitude (0–255). */
  noise?: number;
  /** JPEG quality; PNG when undefined. */
  jpegQuality?: number;
  /** Margin of background around the document, in px. */
  margin?: number;
  /** Share of the photo's width cut off on the right (a document running out of the frame). */
  cropRightShare?: number;
  /**
   * Keystone of a capture taken from below the document's axis: the top edge appears shorter
   * than the bottom by this share of the width (0.15 = 15 %), as a perspective view would.
   */
  perspective?: number;
}

export function holderMrz(layout: 'passport' | 'cni_back', h: Holder = HOLDER): string[] {
  return buildMrz({
    format: layout === 'passport' ? 'TD3' : 'TD1',
    documentCode: layout === 'passport' ? 'P' : 'ID',
    issuingState: h.country,
    nationality: h.country,
    documentNumber: h.number,
    surname: h.surname,
    givenNames: h.givenNames,
    dateOfBirth: h.birth,
    sex: h.sex,
    dateOfExpiry: h.expiry,
  });
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function text(
  x: number,
  y: number,
  size: number,
  value: string,
  opts: { mono?: boolean; bold?: boolean } = {},
): string {
  const family = opts.mono ? 'DejaVu Sans Mono, monospace' : 'DejaVu Sans, sans-serif';
  const weight = opts.bold ? 'bold' : 'normal';
  return `<text x="${x}" y="${y}" font-family="${family}" font-size="${size}" font-weight="${weight}" fill="#111">${esc(value)}</text>`;
}

/**
 * The MRZ's typeface. Real documents print OCR-B (ICAO 9303-3; Debian's fonts-ocr-b), which
 * the MRZ model was trained on; `mono` (DejaVu Sans Mono) is the tests' historical drawing, a
 * font the model misreads at times (G for 6), which sends the reading cascade to its vote.
 */
export type MrzFont = 'mono' | 'ocr-b';

/**
 * Advance widths in em (measured by rendering 44 characters with librsvg): OCR-B's size is
 * scaled so that the zone keeps the width the layouts were drawn for.
 */
const MONO_ADVANCE = 0.602;
const OCR_B_ADVANCE = 0.72;

function mrzText(x: number, y: number, size: number, line: string, font: MrzFont): string {
  if (font === 'mono') return text(x, y, size, line, { mono: true });
  const scaled = ((size * MONO_ADVANCE) / OCR_B_ADVANCE).toFixed(1);
  return `<text x="${x}" y="${y}" font-family="OCR B" font-size="${scaled}" fill="#111">${esc(line)}</text>`;
}

function printedDate(yymmdd: string, century: string): string {
  return `${yymmdd.slice(4, 6)}.${yymmdd.slice(2, 4)}.${century}${yymmdd.slice(0, 2)}`;
}

/** The document itself, upright, as an SVG string and its size. */
export function documentSvg(
  layout: Layout,
  h: Holder = HOLDER,
  opts: { mrzFont?: MrzFont } = {},
): { svg: string; width: number; height: number } {
  const font = opts.mrzFont ?? 'mono';
  const parts: string[] = [];
  let width = 1250;
  let height = 880;
  if (layout === 'passport') {
    parts.push(text(60, 70, 34, 'REPUBLIQUE DU NIGER / REPUBLIC OF NIGER', { bold: true }));
    parts.push(text(60, 115, 26, 'PASSEPORT / PASSPORT'));
    parts.push('<rect x="60" y="150" width="300" height="380" fill="#c9c2b8"/>');
    const rows: [string, string][] = [
      ['Nom / Surname', h.surname],
      ['Prénoms / Given names', h.givenNames],
      ['Nationalité / Nationality', 'NIGERIENNE'],
      ['Date de naissance / Date of birth', printedDate(h.birth, '19')],
      ['Sexe / Sex', h.sex],
      ['Lieu de naissance / Place of birth', 'NIAMEY'],
      ["Date d'expiration / Date of expiry", printedDate(h.expiry, '20')],
    ];
    rows.forEach(([label, value], i) => {
      const y = 175 + i * 62;
      parts.push(text(400, y, 20, label));
      parts.push(text(400, y + 30, 28, value, { bold: true }));
    });
    parts.push(text(850, 175, 20, 'N° du passeport / Passport No'));
    parts.push(text(850, 205, 28, h.number, { bold: true }));
    holderMrz('passport', h).forEach((line, i) => {
      parts.push(mrzText(45, 760 + i * 60, 41.5, line, font));
    });
  } else if (layout === 'cni_back') {
    width = 1000;
    height = 630;
    parts.push(text(50, 60, 24, 'Date de délivrance : 25.09.2021'));
    parts.push(text(50, 100, 24, `Date d'expiration : ${printedDate(h.expiry, '20')}`));
    parts.push(text(50, 140, 24, 'Autorité : DIRECTION DE LA SURETE'));
    holderMrz('cni_back', h).forEach((line, i) => {
      parts.push(mrzText(40, 420 + i * 70, 50, line, font));
    });
  } else if (layout === 'cni_front') {
    width = 1000;
    height = 630;
    parts.push(text(50, 60, 30, 'REPUBLIQUE DU NIGER', { bold: true }));
    parts.push(text(50, 100, 24, "CARTE NATIONALE D'IDENTITE"));
    parts.push('<rect x="50" y="140" width="250" height="320" fill="#c9c2b8"/>');
    const rows: [string, string][] = [
      ['Nom', h.surname],
      ['Prénoms', h.givenNames],
      ['Date de naissance', printedDate(h.birth, '19')],
      ['Sexe', h.sex],
    ];
    rows.forEach(([label, value], i) => {
      parts.push(text(340, 160 + i * 80, 22, label));
      parts.push(text(340, 195 + i * 80, 30, value, { bold: true }));
    });
  } else if (layout === 'niger_paper') {
    width = 800;
    height = 1150;
    parts.push(text(120, 80, 34, 'REPUBLIQUE DU NIGER', { bold: true }));
    parts.push(text(110, 140, 30, "CARTE D'IDENTITE NATIONALE"));
    parts.push(text(480, 220, 24, `N° ${h.number}`, { bold: true }));
    const rows: [string, string][] = [
      ['Nom', h.surname],
      ['Prénoms', h.givenNames],
      ['Né le', printedDate(h.birth, '19')],
      ['Sexe', h.sex],
      ['Fait le', '25 AVRIL 2021'],
    ];
    rows.forEach(([label, value], i) => {
      parts.push(text(80, 320 + i * 110, 26, `${label} : ${value}`));
    });
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<rect width="100%" height="100%" fill="#f3eee2"/>
${parts.join('\n')}
</svg>`;
  return { svg, width, height };
}

/** Renders the document and degrades it like a capture; returns encoded image bytes. */
export async function renderCapture(
  layout: Layout,
  opts: CaptureOptions = {},
  h: Holder = HOLDER,
): Promise<Uint8Array> {
  const { svg } = documentSvg(layout, h);
  const margin = opts.margin ?? 60;
  let img = sharp(Buffer.from(svg))
    .flatten({ background: '#f3eee2' })
    .extend({ top: margin, bottom: margin, left: margin, right: margin, background: '#5a6470' });
  if (opts.tiltDegrees)
    img = sharp(await img.png().toBuffer()).rotate(opts.tiltDegrees, { background: '#5a6470' });
  if (opts.quarterTurns) img = sharp(await img.png().toBuffer()).rotate(90 * opts.quarterTurns);
  if (opts.cropRightShare) {
    const png = await img.png().toBuffer();
    const meta = await sharp(png).metadata();
    const keep = Math.round(meta.width! * (1 - opts.cropRightShare));
    img = sharp(png).extract({ left: 0, top: 0, width: keep, height: meta.height! });
  }
  if (opts.perspective) img = await keystone(img, opts.perspective);
  if (opts.blur) img = img.blur(opts.blur);
  const raw = await img.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  if (opts.noise) {
    // Deterministic noise (a fixed LCG), so that tests are reproducible.
    let seed = 12345;
    const data = raw.data;
    for (let i = 0; i < data.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const n = ((seed / 0x7fffffff) * 2 - 1) * opts.noise;
      data[i] = Math.max(0, Math.min(255, data[i]! + n));
    }
  }
  const out = sharp(raw.data, { raw: { width: raw.info.width, height: raw.info.height, channels: 3 } });
  const bytes = opts.jpegQuality
    ? await out.jpeg({ quality: opts.jpegQuality }).toBuffer()
    : await out.png().toBuffer();
  return new Uint8Array(bytes);
}

/**
 * Perspective warp of a whole capture: every output pixel samples the input through a homography
 * whose top edge spans (1 + share) of the input width, so the content's top edge looks shorter
 * (the input's borders, background colour, fill the sides).
 */
async function keystone(img: Sharp, share: number): Promise<Sharp> {
  const { data, info } = await img.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const src = {
    rgb: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    width: info.width,
    height: info.height,
  };
  const a = (share * info.width) / 2;
  const out = warpQuad(
    src,
    [
      [-a, 0],
      [info.width + a, 0],
      [info.width, info.height],
      [0, info.height],
    ],
    info.width,
    info.height,
  );
  return sharp(out.rgb, { raw: { width: out.width, height: out.height, channels: 3 } });
}
