import sharp from 'sharp';
import { normalizeImage } from '../../src/image/normalize.ts';

/**
 * One value typed on light paper, for the glyph cue's tests: DejaVu Sans Bold by default; a
 * forger's glyph is a part of another font or size standing on the same baseline.
 */

/** The value's type size in px. */
export const SIZE = 40;
/** Where the value lies on the page: a field box around it. */
export const box = { x: 10, y: 30, w: 560, h: 64 };

/** A 600 × 120 px page with `parts` typed along one baseline (each part its own size and face). */
export async function typed(parts: { text: string; size?: number; family?: string; weight?: string }[]) {
  const spans = parts
    .map(
      (p) =>
        `<tspan font-family="${p.family ?? 'DejaVu Sans'}" font-weight="${p.weight ?? 'bold'}" font-size="${p.size ?? SIZE}">${p.text}</tspan>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="120"><rect width="600" height="120" fill="rgb(236,232,222)"/><text x="20" y="80" fill="rgb(24,24,28)" xml:space="preserve">${spans}</text></svg>`;
  return normalizeImage(new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer()));
}
