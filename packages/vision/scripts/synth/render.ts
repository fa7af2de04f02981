import sharp, { type OverlayOptions } from 'sharp';
import { type Drawing, itemBox, type TextItem } from './compose.ts';
import { fillerGlyphsSvg } from './filler-glyph.ts';
import type { LayoutSpec } from './layouts.ts';
import { portrait } from './portrait.ts';
import type { Rng } from './random.ts';
import { backgroundSvg, densePrintSvg, extrasSvg } from './security-print.ts';

/**
 * Draws a composed document upright: background and security print, text (SVG through sharp's
 * librsvg, with the system's fonts: DejaVu for the printed zone, OCR-B for the MRZ), then the
 * portrait photo (and its ghost) composited in. Returns RGB pixels and, in the same pixels, the
 * box of every field value, of the portrait and of each MRZ line.
 */

export type Box = [number, number, number, number];

export interface RenderedDocument {
  rgb: Buffer;
  width: number;
  height: number;
  /** Field boxes [x0, y0, x1, y1] in the rendered document's pixels. */
  boxes: { field: string; box: Box }[];
  portrait: Box | null;
  /** The face inside the portrait, document pixels. */
  face: Box | null;
  portraitIndex: number | null;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function textSvg(t: TextItem, r: Rng): string {
  // OCR-B is monospaced (a space advances as a '<'): the fillers' cells are left blank for the
  // drawn shape.
  const text = t.fillerGlyph ? t.text.replace(/</g, ' ') : t.text;
  const own = `<text x="${t.x.toFixed(1)}" y="${t.y.toFixed(1)}" font-family="${t.font.family}" font-weight="${t.font.weight}" font-size="${t.size.toFixed(1)}" fill="${t.fill}" text-anchor="${t.anchor}" xml:space="preserve">${esc(text)}</text>`;
  if (!t.fillerGlyph) return own;
  const advance = t.width / Math.max(1, t.text.length);
  return own + fillerGlyphsSvg(t.text, t.x, t.y, t.size, advance, t.fillerGlyph, t.fill, r);
}

/**
 * `scale`: output pixels per layout pixel (a 1000-px card at 1.7 is 1700 px wide). `densePrint`
 * adds fine-line print over the layout's background (security-print.ts), from its own stream:
 * the rest of the document is drawn as without it.
 */
export async function renderDocument(
  spec: LayoutSpec,
  d: Drawing,
  r: Rng,
  scale: number,
  densePrint = false,
): Promise<RenderedDocument> {
  const W = Math.round(d.width * scale);
  const H = Math.round(d.height * scale);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${d.width} ${d.height}">${backgroundSvg(spec, r.fork(1))}${densePrint ? densePrintSvg(d.width, d.height, spec.palette.print, r.fork(6)) : ''}${extrasSvg(spec, r.fork(2))}${d.items.map((t, i) => textSvg(t, r.fork(400 + i))).join('')}</svg>`;
  const composites: OverlayOptions[] = [];
  let portraitBox: Box | null = null;
  let face: Box | null = null;
  let portraitIndex: number | null = null;
  if (d.portrait) {
    const p = d.portrait;
    const pw = Math.round(p.w * scale);
    const ph = Math.round(p.h * scale);
    const photo = await portrait(r.fork(3), pw, ph, p.gray);
    portraitIndex = photo.index;
    const left = Math.round(p.x * scale);
    const top = Math.round(p.y * scale);
    composites.push({ input: photo.rgb, raw: { width: pw, height: ph, channels: 3 }, left, top });
    portraitBox = [left, top, left + pw, top + ph];
    const [fx, fy, fw, fh] = photo.face;
    face = [left + fx, top + fy, left + fx + fw, top + fy + fh];
    if (d.ghost) {
      // The ghost image: the same face, small, faded into the paper.
      const gw = Math.round(d.ghost.w * scale);
      const gh = Math.round(d.ghost.h * scale);
      const ghost = await sharp(photo.rgb, { raw: { width: pw, height: ph, channels: 3 } })
        .resize(gw, gh)
        .linear(0.35, 160)
        .ensureAlpha(0.55)
        .png()
        .toBuffer();
      composites.push({
        input: ghost,
        left: Math.round(d.ghost.x * scale),
        top: Math.round(d.ghost.y * scale),
        blend: 'multiply',
      });
    }
  }
  let img = sharp(Buffer.from(svg)).flatten({ background: spec.palette.paper });
  if (composites.length) img = sharp(await img.png().toBuffer()).composite(composites);
  const { data, info } = await img.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const boxes = d.items
    .filter((t) => t.field)
    .map((t) => ({ field: t.field!, box: itemBox(t).map((v) => v * scale) as Box }));
  return {
    rgb: data,
    width: info.width,
    height: info.height,
    boxes,
    portrait: portraitBox,
    face,
    portraitIndex,
  };
}
