import type { RgbImage } from '../../../src/image/raster.ts';
import { grownRect, type PixelRect } from './inpaint.ts';
import type { Rng } from './rng.ts';
import type { Rect } from './types.ts';

/**
 * A field transplanted: the region of another value of the page (the donor) copied over the
 * field, stretched to the field's selection: SIDTD's "crop and replace" and "copy paste", the
 * text forgeries of the public forged-document sets made from MIDV-2020 templates. Its makers
 * select both regions with a margin around the text, map one onto the other (a homography: for
 * two rectangles, a scale and a shift), and move each a few pixels (0–9 px, "so as not to make
 * a perfect forgery"). The donor's background comes along: printed pattern
 * taken from elsewhere on the page, so the pattern breaks along the selection's border, and the
 * donor's text, squeezed or stretched to the field's width.
 *
 * Two ways of resampling, drawn half and half: SIDTD's own (every donor pixel sent forward to
 * the rounded target position: where the donor is smaller than the field, target pixels get no
 * donor pixel and keep the old content, a sieve of the old value) and an image editor's
 * (each target pixel read back from the donor, bilinear: no holes).
 */
export function transplantField(img: RgbImage, target: Rect, donor: Rect, rng: Rng): RgbImage {
  const h = Math.min(target.h, donor.h);
  // The selections: the text's box grown by a margin (an annotation box, a forger's rectangle).
  const margin = h * rng.between(0.15, 0.5);
  const to = shifted(grownRect(target, margin, img.width, img.height), h, img, rng);
  const from = shifted(grownRect(donor, margin, img.width, img.height), h, img, rng);
  return rng.next() < 0.5 ? forwardNearest(img, from, to) : backwardBilinear(img, from, to);
}

/** A selection moved by up to a quarter of a line height each way (SIDTD: 0–9 px), kept inside the image. */
function shifted(r: PixelRect, h: number, img: RgbImage, rng: Rng): PixelRect {
  const dx = Math.round(rng.between(0, 0.25) * h);
  const dy = Math.round(rng.between(0, 0.25) * h);
  const mx = Math.min(dx, img.width - 1 - r.x1);
  const my = Math.min(dy, img.height - 1 - r.y1);
  return { x0: r.x0 + mx, y0: r.y0 + my, x1: r.x1 + mx, y1: r.y1 + my };
}

/** SIDTD's mapping: each donor pixel written at its rounded-down target position. */
function forwardNearest(img: RgbImage, from: PixelRect, to: PixelRect): RgbImage {
  const { width: W } = img;
  const rgb = img.rgb.slice();
  const sx = (to.x1 - to.x0 + 1) / (from.x1 - from.x0 + 1);
  const sy = (to.y1 - to.y0 + 1) / (from.y1 - from.y0 + 1);
  for (let y = from.y0; y <= from.y1; y++) {
    const ty = to.y0 + Math.floor((y - from.y0) * sy);
    for (let x = from.x0; x <= from.x1; x++) {
      const tx = to.x0 + Math.floor((x - from.x0) * sx);
      for (let c = 0; c < 3; c++) rgb[(ty * W + tx) * 3 + c] = img.rgb[(y * W + x) * 3 + c]!;
    }
  }
  return { rgb, width: img.width, height: img.height };
}

/** An editor's free transform: each target pixel read back from the donor, bilinear. */
function backwardBilinear(img: RgbImage, from: PixelRect, to: PixelRect): RgbImage {
  const { width: W } = img;
  const rgb = img.rgb.slice();
  const sx = (from.x1 - from.x0) / Math.max(1, to.x1 - to.x0);
  const sy = (from.y1 - from.y0) / Math.max(1, to.y1 - to.y0);
  for (let y = to.y0; y <= to.y1; y++) {
    const fy = from.y0 + (y - to.y0) * sy;
    const y0 = Math.min(from.y1, Math.floor(fy));
    const y1 = Math.min(from.y1, y0 + 1);
    const ay = fy - y0;
    for (let x = to.x0; x <= to.x1; x++) {
      const fx = from.x0 + (x - to.x0) * sx;
      const x0 = Math.min(from.x1, Math.floor(fx));
      const x1 = Math.min(from.x1, x0 + 1);
      const ax = fx - x0;
      for (let c = 0; c < 3; c++) {
        const at = (yy: number, xx: number) => img.rgb[(yy * W + xx) * 3 + c]!;
        const top = at(y0, x0) * (1 - ax) + at(y0, x1) * ax;
        const bottom = at(y1, x0) * (1 - ax) + at(y1, x1) * ax;
        rgb[(y * W + x) * 3 + c] = Math.round(top * (1 - ay) + bottom * ay);
      }
    }
  }
  return { rgb, width: img.width, height: img.height };
}
