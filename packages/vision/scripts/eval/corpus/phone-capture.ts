import { homographyFromRect, type Quad, type RgbImage, warpQuad } from '../../../src/image/raster.ts';
import { apply, invert } from '../../synth/geometry.ts';
import { blurRgb, clamp255, encodeJpeg, smoothField } from './raster-io.ts';
import type { Rng } from './rng.ts';

/**
 * What a phone does to anything it photographs, applied after every attack and to the bona fide
 * images alike (so a detector cannot tell them apart by the capture): the document on a table,
 * seen in perspective, under uneven light, with a white balance of its own, optical blur,
 * sensor noise, and JPEG at quality 70–90.
 */
export interface PhoneCaptureOptions {
  /** Skip the perspective warp (a screen recapture already carries the camera's geometry). */
  flat?: boolean;
  /** How strong the tilt may be: corner shift up to this share of the size (default 0.06). */
  tilt?: number;
}

const TABLES: [number, number, number][] = [
  [92, 100, 112],
  [140, 110, 80],
  [200, 200, 195],
  [60, 55, 50],
  [120, 135, 120],
];

export async function phoneCapture(
  img: RgbImage,
  rng: Rng,
  opts: PhoneCaptureOptions = {},
): Promise<Uint8Array> {
  return (await phoneCaptureMapped(img, rng, opts)).bytes;
}

/** Where a point of the source lands on the captured picture (its pixels). */
export type PointMap = (x: number, y: number) => [number, number];

/** The capture and the map of source points onto it (to carry truth boxes along). */
export async function phoneCaptureMapped(
  img: RgbImage,
  rng: Rng,
  opts: PhoneCaptureOptions = {},
): Promise<{ bytes: Uint8Array; map: PointMap }> {
  let out = img;
  let map: PointMap = (x, y) => [x, y];
  if (!opts.flat) ({ image: out, map } = placeInPerspective(img, rng, opts.tilt ?? 0.06));
  out = lightAndBalance(out, rng);
  out = await blurRgb(out, rng.between(0.3, 1.1));
  addSensorNoise(out, rng, rng.between(1.5, 4));
  return { bytes: await encodeJpeg(out, Math.round(rng.between(70, 90))), map };
}

/** The document on a table, margin around it, the frame's corners pulled in (a tilted phone). */
function placeInPerspective(img: RgbImage, rng: Rng, tilt: number): { image: RgbImage; map: PointMap } {
  const m = Math.round(Math.max(img.width, img.height) * rng.between(0.06, 0.14));
  const W = img.width + 2 * m;
  const H = img.height + 2 * m;
  const table = rng.pick(TABLES);
  const texture = smoothField(W, H, 12, rng.next);
  const padded = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const o = (y * W + x) * 3;
      const inside = x >= m && y >= m && x < m + img.width && y < m + img.height;
      if (inside) {
        const i = ((y - m) * img.width + (x - m)) * 3;
        padded[o] = img.rgb[i]!;
        padded[o + 1] = img.rgb[i + 1]!;
        padded[o + 2] = img.rgb[i + 2]!;
      } else {
        const t = 1 + 0.08 * texture[y * W + x]!;
        for (let c = 0; c < 3; c++) padded[o + c] = clamp255(table[c]! * t);
      }
    }
  }
  const j = () => rng.between(0, tilt);
  const quad: Quad = [
    [j() * W, j() * H],
    [W - j() * W, j() * H],
    [W - j() * W, H - j() * H],
    [j() * W, H - j() * H],
  ];
  // Output at a phone's working size (long side 1400–2000), never above the source's.
  const scale = Math.min(1, rng.between(1400, 2000) / Math.max(W, H));
  const [ow, oh] = [Math.round(W * scale), Math.round(H * scale)];
  const image = warpQuad({ rgb: padded, width: W, height: H }, quad, ow, oh);
  // warpQuad samples output (u, v) at M·(u, v) in the padded source; a source point goes back
  // through M's inverse.
  const inv = invert(homographyFromRect(ow, oh, quad));
  const map: PointMap = (x, y) => apply(inv, [x + m, y + m]);
  return { image, map };
}

/** Uneven room light (a smooth gradient) and the camera's white balance (per-channel gains). */
function lightAndBalance(img: RgbImage, rng: Rng): RgbImage {
  const { width: w, height: h } = img;
  const light = smoothField(w, h, 2, rng.next);
  const depth = rng.between(0.03, 0.12);
  const gains = [rng.between(0.92, 1.08), 1, rng.between(0.9, 1.08)];
  const exposure = rng.between(0.92, 1.06);
  const rgb = new Uint8Array(img.rgb.length);
  for (let p = 0; p < w * h; p++) {
    const l = exposure * (1 + depth * light[p]!);
    for (let c = 0; c < 3; c++) rgb[p * 3 + c] = clamp255(img.rgb[p * 3 + c]! * l * gains[c]!);
  }
  return { rgb, width: w, height: h };
}

/** Sensor noise: mostly luminance, a little independent per channel (chroma noise). */
function addSensorNoise(img: RgbImage, rng: Rng, sigma: number): void {
  const { rgb } = img;
  for (let p = 0; p < rgb.length; p += 3) {
    const l = rng.normal() * sigma;
    for (let c = 0; c < 3; c++) rgb[p + c] = clamp255(rgb[p + c]! + l + rng.normal() * sigma * 0.4);
  }
}
