import sharp from 'sharp';
import { cropRgb, type Quad, quadHeight, type RgbImage } from '../image/raster.ts';
import { upperMedian } from '../image/stats.ts';
import type { PageReading } from '../ocr/page.ts';
import { profiled } from '../runtime/profile.ts';
import type { MrzRow } from './locate.ts';
import { rowInk } from './row-extent.ts';

/**
 * MRZ blocks whose glyphs are small: the rule that tells them (a character pitch in pixels of the
 * image read), and the resampled copy of such a block the MRZ model reads again (model-read.ts).
 */

/**
 * A character pitch under this many pixels of the image read sends the block to the vote of both
 * recognisers whatever the MRZ model's sureness: on glyphs this small and blurred the model can
 * be sure and wrong (a D read as O in a name, at a pitch of 6.8 px; decisions.md). The pixels are
 * the source's own on a photo under 640 px, which ocr/focus.ts reads unscaled; on an upscaled
 * view (a focused crop, the second look) they are the copy's, and the rule seldom applies there.
 * Where row-extent.ts measured no pitch, the row height stands in, at OCR-B's pitch of about 0.65
 * box heights.
 */
export const SMALL_GLYPH_PITCH_PX = 9;
const PITCH_PER_HEIGHT = 0.65;
export function smallGlyphs(rows: MrzRow[]): boolean {
  const pitches = rows.flatMap((r) => (r.pitch === undefined ? [] : [r.pitch]));
  const pitch =
    pitches.length > 0 ? upperMedian(pitches) : PITCH_PER_HEIGHT * upperMedian(rows.map((r) => r.height));
  return pitch < SMALL_GLYPH_PITCH_PX;
}

/**
 * smallGlyphs with the pitch measured on the ink (row-extent.ts) for rows that carry none: a
 * candidate block keeps a measured pitch only when its ink extended it (locate.ts), and the row
 * height stands in for the rest, which on the box heights of small photos overestimates the pitch
 * (a passport row measured at 8.2 px of pitch in a 16-px box: 10.5 px by the stand-in).
 */
export function smallGlyphsMeasured(img: RgbImage, page: PageReading, rows: MrzRow[]): boolean {
  if (rows.some((r) => r.pitch !== undefined)) return smallGlyphs(rows);
  return smallGlyphs(rows.map((r) => ({ ...r, pitch: rowInk(img, page, r)?.pitch })));
}

/**
 * How tall (in pixels of the resampled copy) a line crop is made: twice the model's 32-px input,
 * so that mrzLineInput box-averages 2 × 2 samples down to the input (as the training data was
 * reduced), the glyph shapes coming from Lanczos rather than from bilinear sampling.
 */
const RESAMPLED_CROP_PX = 64;
/** Bounds on the upscaling factor (a 7-px glyph row is ~10 px tall: ~5×). */
const MIN_FACTOR = 2;
const MAX_FACTOR = 6;

export interface Resampling {
  /** Unsharp mask sigma in source pixels (0: none). */
  sharpen: number;
}

/**
 * The region of `img` under `quads` (the block's line crops, image pixels), upscaled with Lanczos
 * (and optionally sharpened) and the quads mapped into the copy: the same lines, sampled another
 * way, for the MRZ model to read again.
 */
export async function resampledLines(
  img: RgbImage,
  quads: Quad[],
  how: Resampling,
): Promise<{ image: RgbImage; quads: Quad[] }> {
  const xs = quads.flatMap((q) => q.map((p) => p[0]));
  const ys = quads.flatMap((q) => q.map((p) => p[1]));
  // A few pixels beyond the crops so the filter's support near the edges sees real pixels.
  const pad = 4;
  const x0 = Math.max(0, Math.floor(Math.min(...xs)) - pad);
  const y0 = Math.max(0, Math.floor(Math.min(...ys)) - pad);
  const x1 = Math.min(img.width, Math.ceil(Math.max(...xs)) + pad);
  const y1 = Math.min(img.height, Math.ceil(Math.max(...ys)) + pad);
  const region = cropRgb(img, x0, y0, Math.max(1, x1 - x0), Math.max(1, y1 - y0));
  const h = upperMedian(quads.map(quadHeight));
  const factor = Math.min(MAX_FACTOR, Math.max(MIN_FACTOR, RESAMPLED_CROP_PX / Math.max(1, h)));
  const width = Math.max(1, Math.round(region.width * factor));
  const height = Math.max(1, Math.round(region.height * factor));
  const { data } = await profiled('resize', 'mrz-small-resample', `${region.width}x${region.height}`, () => {
    let s = sharp(region.rgb, { raw: { width: region.width, height: region.height, channels: 3 } }).resize({
      width,
      height,
      fit: 'fill',
      kernel: 'lanczos3',
    });
    if (how.sharpen > 0) s = s.sharpen({ sigma: how.sharpen * factor });
    return s.raw().toBuffer({ resolveWithObject: true });
  });
  // Pixel edges map to pixel edges (sharp aligns the pixel centres of a 'fill' resize).
  const fx = width / region.width;
  const fy = height / region.height;
  return {
    image: { rgb: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width, height },
    quads: quads.map((q) => q.map(([x, y]) => [(x - x0) * fx, (y - y0) * fy]) as Quad),
  };
}
