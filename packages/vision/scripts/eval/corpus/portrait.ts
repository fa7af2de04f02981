import type { RgbImage } from '../../../src/image/raster.ts';
import { blurRgb, clamp255, resizeTo } from './raster-io.ts';
import type { Rng } from './rng.ts';
import type { Rect } from './types.ts';

/**
 * Portrait swaps: another person's portrait put over the genuine one, three ways.
 * - pasted: the donor's portrait cut as a rectangle and pasted (a hard edge);
 * - blended: its colours matched to the page and its border feathered over a few pixels;
 * - reglued: the donor's photo printed (a little paler, a thin white paper margin), cut out and
 *   glued on the page (its shadow falls on two sides);
 * - recut: the donor's photo resized into the printed portrait's own extent when the source
 *   knows it (a forger cuts along the printed photo), placed a pixel or two off and a percent or
 *   two too big or small, its colours matched half of the time; without a known extent, the frame
 *   around the face.
 */
export type SwapStyle = 'pasted' | 'blended' | 'reglued' | 'recut';

/** Where the swap goes and where the donor's photo is, when the sources know their photo. */
export interface SwapExtents {
  targetPhoto?: Rect;
  donorPhoto?: Rect;
}

/** The printed portrait around a detected face (a face box covers only part of the photo). */
export function portraitFrame(face: Rect, width: number, height: number): Rect {
  const w = face.w * 1.5;
  const h = face.h * 1.9;
  const x = Math.max(0, face.x + face.w / 2 - w / 2);
  const y = Math.max(0, face.y + face.h * 0.45 - h / 2);
  return {
    x: Math.round(x),
    y: Math.round(y),
    w: Math.round(Math.min(w, width - x)),
    h: Math.round(Math.min(h, height - y)),
  };
}

export async function swapPortrait(
  target: RgbImage,
  targetFace: Rect,
  donor: RgbImage,
  donorFace: Rect,
  style: SwapStyle,
  rng: Rng,
  extents: SwapExtents = {},
): Promise<RgbImage> {
  const recut = style === 'recut';
  const t =
    recut && extents.targetPhoto
      ? misaligned(extents.targetPhoto, target.width, target.height, rng)
      : portraitFrame(targetFace, target.width, target.height);
  const d =
    recut && extents.donorPhoto
      ? clip(extents.donorPhoto, donor.width, donor.height)
      : portraitFrame(donorFace, donor.width, donor.height);
  const patch = await resizeTo(crop(donor, d), t.w, t.h);
  const out = target.rgb.slice();
  const W = target.width;
  if (style === 'blended' || (recut && rng.next() < 0.5)) matchColours(patch, crop(target, t));
  if (style === 'reglued') printLook(patch, rng);
  const feather = style === 'blended' ? rng.between(3, 9) : 0;
  const margin = style === 'reglued' ? Math.round(rng.between(2, 5)) : 0;
  if (style === 'reglued') {
    // The shadow under the glued photo (right and bottom, a lamp above left).
    const off = Math.round(rng.between(2, 6));
    const shadow = rng.between(0.55, 0.8);
    for (let y = t.y + off; y < Math.min(target.height, t.y + t.h + off); y++) {
      for (let x = t.x + off; x < Math.min(W, t.x + t.w + off); x++) {
        for (let c = 0; c < 3; c++) out[(y * W + x) * 3 + c] = Math.round(out[(y * W + x) * 3 + c]! * shadow);
      }
    }
  }
  for (let y = 0; y < t.h; y++) {
    for (let x = 0; x < t.w; x++) {
      const o = ((t.y + y) * W + t.x + x) * 3;
      const edge = Math.min(x, y, t.w - 1 - x, t.h - 1 - y);
      const a = feather ? Math.min(1, (edge + 0.5) / feather) : 1;
      const paperEdge = edge < margin;
      for (let c = 0; c < 3; c++) {
        const v = paperEdge ? 242 : patch.rgb[(y * t.w + x) * 3 + c]!;
        out[o + c] = clamp255(a * v + (1 - a) * out[o + c]!);
      }
    }
  }
  const swapped = { rgb: out, width: target.width, height: target.height };
  // A scanner or phone softens the pasted edge a little like everything else.
  return style === 'pasted' ? swapped : blurRgb(swapped, 0.4);
}

/**
 * The printed photo's extent as a forger's cut lands on it: shifted by up to 2 px and scaled by
 * up to 3 % (a hand-cut print laid over the genuine one), inside the page.
 */
function misaligned(photo: Rect, width: number, height: number, rng: Rng): Rect {
  const k = rng.between(0.97, 1.03);
  const w = photo.w * k;
  const h = photo.h * k;
  const cx = photo.x + photo.w / 2 + rng.between(-2, 2);
  const cy = photo.y + photo.h / 2 + rng.between(-2, 2);
  return clip({ x: cx - w / 2, y: cy - h / 2, w, h }, width, height);
}

/** A rectangle rounded to whole pixels and kept inside the image. */
function clip(r: Rect, width: number, height: number): Rect {
  const x = Math.max(0, Math.round(r.x));
  const y = Math.max(0, Math.round(r.y));
  return {
    x,
    y,
    w: Math.max(1, Math.min(Math.round(r.w), width - x)),
    h: Math.max(1, Math.min(Math.round(r.h), height - y)),
  };
}

function crop(img: RgbImage, r: Rect): RgbImage {
  const rgb = new Uint8Array(r.w * r.h * 3);
  for (let y = 0; y < r.h; y++) {
    const from = ((r.y + y) * img.width + r.x) * 3;
    rgb.set(img.rgb.subarray(from, from + r.w * 3), y * r.w * 3);
  }
  return { rgb, width: r.w, height: r.h };
}

/** Mean and spread of each channel of `patch` moved to those of `like` (colour transfer). */
function matchColours(patch: RgbImage, like: RgbImage): void {
  for (let c = 0; c < 3; c++) {
    const [m1, s1] = stats(patch, c);
    const [m2, s2] = stats(like, c);
    for (let i = c; i < patch.rgb.length; i += 3)
      patch.rgb[i] = clamp255(((patch.rgb[i]! - m1) * s2) / s1 + m2);
  }
}

function stats(img: RgbImage, c: number): [number, number] {
  let s = 0;
  let s2 = 0;
  const n = img.rgb.length / 3;
  for (let i = c; i < img.rgb.length; i += 3) {
    s += img.rgb[i]!;
    s2 += img.rgb[i]! ** 2;
  }
  const m = s / n;
  return [m, Math.max(1, Math.sqrt(Math.max(0, s2 / n - m * m)))];
}

/** A home print: paler, a little less saturated, with a warm paper. */
function printLook(patch: RgbImage, rng: Rng): void {
  const keep = rng.between(0.6, 0.85);
  for (let i = 0; i < patch.rgb.length; i += 3) {
    const l = 0.299 * patch.rgb[i]! + 0.587 * patch.rgb[i + 1]! + 0.114 * patch.rgb[i + 2]!;
    for (let c = 0; c < 3; c++) patch.rgb[i + c] = clamp255(30 + 0.9 * (l + keep * (patch.rgb[i + c]! - l)));
  }
}
