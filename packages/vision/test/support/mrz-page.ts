import sharp from 'sharp';
import { type NormalizedImage, normalizeImage } from '../../src/image/normalize.ts';
import type { Quad, RgbImage } from '../../src/image/raster.ts';

/** Escapes text for an SVG text node (MRZ fillers are '<'). */
export const escapeSvg = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** An SVG drawn to RGB pixels (a line strip for the MRZ recogniser's tests). */
export async function rasterizeSvg(svg: string): Promise<RgbImage> {
  const { data, info } = await sharp(Buffer.from(svg))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { rgb: new Uint8Array(data), width: info.width, height: info.height };
}

/** The quad of a whole image: a line strip read as one line. */
export const wholeQuad = (img: RgbImage): Quad => [
  [0, 0],
  [img.width, 0],
  [img.width, img.height],
  [0, img.height],
];

export interface MrzPageOptions {
  /** Page width in pixels (height is 0.7 of it). */
  width?: number;
  /** Where the block of lines sits: the bottom, as an MRZ; the top, as a card's title block. */
  at?: 'bottom' | 'top';
  /** A printed heading above, in a sans font (the page's other text). */
  title?: string;
  /** A grey rectangle where a portrait would be. */
  portrait?: boolean;
  /** Quarter turns clockwise after drawing (a photo taken sideways or upside down). */
  quarterTurns?: number;
  /** Left edge of the lines (px from the page's edge; 60 unless set): an MRZ printed near the edge. */
  left?: number;
  /** A dark surround this many pixels wide on every side (the page photographed on a table). */
  surround?: number;
  /** The page's colour (a light cream unless set): a toned card back prints as larger dots. */
  paper?: string;
  /** A dark bar this many pixels wide down the page, one character cell left of the lines. */
  edgeBar?: number;
}

/**
 * A light page with lines in OCR-B (Debian's fonts-ocr-b, as printed MRZs are), normalised as the
 * service receives a photo. The reading tests draw their zones (and non-MRZ blocks) with it.
 */
export async function renderMrzPage(lines: string[], opts: MrzPageOptions = {}): Promise<NormalizedImage> {
  const width = opts.width ?? 1700;
  const size = Math.round((width - 120) / (Math.max(...lines.map((l) => l.length)) * 0.75));
  const height = Math.round(width * 0.7);
  const top = opts.at === 'top' ? height * 0.1 : height - 60 - lines.length * size * 1.45;
  const text = lines
    .map(
      (l, i) =>
        `<text x="${opts.left ?? 60}" y="${Math.round(top + (i + 1) * size * 1.45)}" font-family="OCR B" font-size="${size}" fill="#1a1a1a">${escapeSvg(l)}</text>`,
    )
    .join('');
  const title = opts.title
    ? `<text x="60" y="${Math.round(height * 0.15)}" font-family="DejaVu Sans" font-size="${Math.round(size * 0.9)}" fill="#333">${escapeSvg(opts.title)}</text>`
    : '';
  const portrait = opts.portrait
    ? `<rect x="60" y="${Math.round(height * 0.22)}" width="${Math.round(width * 0.22)}" height="${Math.round(height * 0.4)}" fill="#c9c2b8"/>`
    : '';
  const bar = opts.edgeBar
    ? `<rect x="${Math.round((opts.left ?? 60) - size * 0.75 - opts.edgeBar)}" y="0" width="${opts.edgeBar}" height="${height}" fill="#202020"/>`
    : '';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${opts.paper ?? '#efe9dc'}"/>${title}${portrait}${bar}${text}</svg>`;
  let img = sharp(Buffer.from(svg));
  if (opts.surround) {
    const e = opts.surround;
    img = sharp(await img.png().toBuffer()).extend({
      top: e,
      bottom: e,
      left: e,
      right: e,
      background: '#4a5058',
    });
  }
  if (opts.quarterTurns) img = sharp(await img.png().toBuffer()).rotate(90 * opts.quarterTurns);
  return normalizeImage(new Uint8Array(await img.png().toBuffer()));
}
