import type { RgbImage } from '../../../src/image/raster.ts';
import { blurRgb, clamp255, smoothField } from './raster-io.ts';
import type { Rng } from './rng.ts';

/**
 * Copies and prints: what a copier or a laser printer does to a colour document.
 * - grey copy: luminance only, steeper tone curve (toner crushes darks, paper blows out light
 *   tints of the security print), optional halftone dots, toner speckle, paper texture and tint;
 * - colour copy: saturation mostly lost (a 4-colour copier reproduces the guilloche's pale tints
 *   badly), colour registration shifted by a pixel, the same paper and toner;
 * - the copy photographed at an angle under room light: done by the caller (phone capture with
 *   a strong tilt) after `roomLight` casts a warm lamp over it.
 */
export async function greyCopy(img: RgbImage, rng: Rng): Promise<RgbImage> {
  const { width: w, height: h } = img;
  const gamma = rng.between(0.7, 1.1);
  const contrast = rng.between(1.1, 1.6);
  const halftone = rng.next() < 0.5 ? rng.between(3, 5.5) : 0;
  const angle = (rng.between(15, 75) * Math.PI) / 180;
  const [ca, sa] = [Math.cos(angle), Math.sin(angle)];
  const lum = new Float32Array(w * h);
  for (let p = 0; p < w * h; p++) {
    const i = p * 3;
    const l = (0.299 * img.rgb[i]! + 0.587 * img.rgb[i + 1]! + 0.114 * img.rgb[i + 2]!) / 255;
    let v = Math.max(0, Math.min(1, (l ** gamma - 0.5) * contrast + 0.55));
    if (halftone) {
      // Clustered dot screen: a dot grows with the ink to put down.
      const x = p % w;
      const y = (p - x) / w;
      const u = (ca * x + sa * y) / halftone;
      const t = (-sa * x + ca * y) / halftone;
      const d = (Math.cos(2 * Math.PI * u) + Math.cos(2 * Math.PI * t)) / 4 + 0.5;
      v = 1 - v > d ? 0.1 : 1;
    }
    lum[p] = v;
  }
  return paper(await softenInk(lum, w, h, halftone ? 1 : 0.5), rng, 0);
}

export async function colourCopy(img: RgbImage, rng: Rng): Promise<RgbImage> {
  const { width: w, height: h } = img;
  const keep = rng.between(0.15, 0.45);
  const contrast = rng.between(1.1, 1.4);
  const shift = [Math.round(rng.between(-1.5, 1.5)), 0, Math.round(rng.between(-1.5, 1.5))];
  const out = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const o = (y * w + x) * 3;
      const l = 0.299 * img.rgb[o]! + 0.587 * img.rgb[o + 1]! + 0.114 * img.rgb[o + 2]!;
      for (let c = 0; c < 3; c++) {
        const xs = Math.min(w - 1, Math.max(0, x + shift[c]!));
        const v = img.rgb[(y * w + xs) * 3 + c]!;
        const desat = l + keep * (v - l);
        out[o + c] = clamp255((desat - 128) * contrast + 135);
      }
    }
  }
  const soft = await blurRgb({ rgb: out, width: w, height: h }, 0.7);
  return paper(soft, rng, 1);
}

/**
 * A colour print from a home or office printer (the print a forger photographs): some saturation
 * lost (30–70 % kept), each of cyan, magenta and yellow put down as a dot screen at its own angle
 * (the rosette of a halftone print), the dots softened by the ink's spread, then the paper's tint,
 * fibres and toner speckle.
 */
export async function colourPrint(img: RgbImage, rng: Rng): Promise<RgbImage> {
  const { width: w, height: h } = img;
  const keep = rng.between(0.3, 0.7);
  const cell = rng.between(2.5, 4.5);
  const base = rng.between(0, 90);
  const screens = [15, 75, 0].map((a) => {
    const r = ((a + base) * Math.PI) / 180;
    return [Math.cos(r), Math.sin(r)] as const;
  });
  const out = new Uint8Array(w * h * 3);
  for (let p = 0; p < w * h; p++) {
    const x = p % w;
    const y = (p - x) / w;
    const o = p * 3;
    const l = 0.299 * img.rgb[o]! + 0.587 * img.rgb[o + 1]! + 0.114 * img.rgb[o + 2]!;
    for (let c = 0; c < 3; c++) {
      const ink = 1 - (l + keep * (img.rgb[o + c]! - l)) / 255; // cyan, magenta, yellow
      const [ca, sa] = screens[c]!;
      const u = (ca * x + sa * y) / cell;
      const t = (-sa * x + ca * y) / cell;
      const d = (Math.cos(2 * Math.PI * u) + Math.cos(2 * Math.PI * t)) / 4 + 0.5;
      out[o + c] = ink > d ? 35 : 250;
    }
  }
  const soft = await blurRgb({ rgb: out, width: w, height: h }, rng.between(0.6, 1.1));
  return paper(soft, rng, 1);
}

/** A warm lamp lighting a print from one side (the print photographed at home). */
export function roomLight(img: RgbImage, rng: Rng): RgbImage {
  const { width: w, height: h } = img;
  const gains = [rng.between(1.02, 1.1), 1, rng.between(0.78, 0.9)];
  const fall = smoothField(w, h, 1, rng.next);
  const out = new Uint8Array(img.rgb.length);
  for (let p = 0; p < w * h; p++) {
    const l = 0.9 + 0.12 * fall[p]!;
    for (let c = 0; c < 3; c++) out[p * 3 + c] = clamp255(img.rgb[p * 3 + c]! * l * gains[c]!);
  }
  return { rgb: out, width: w, height: h };
}

async function softenInk(lum: Float32Array, w: number, h: number, sigma: number): Promise<RgbImage> {
  const rgb = new Uint8Array(w * h * 3);
  for (let p = 0; p < w * h; p++) {
    const v = clamp255(lum[p]! * 255);
    rgb[p * 3] = v;
    rgb[p * 3 + 1] = v;
    rgb[p * 3 + 2] = v;
  }
  return blurRgb({ rgb, width: w, height: h }, sigma);
}

/** Office paper (a faint tint and fibre texture) and toner speckle over the printed image. */
function paper(img: RgbImage, rng: Rng, colourNoise: number): RgbImage {
  const { width: w, height: h } = img;
  const tint = [rng.between(0.96, 1), rng.between(0.96, 1), rng.between(0.93, 1)];
  const fibres = smoothField(w, h, Math.round(w / 6), rng.next);
  const speckle = rng.between(0.0005, 0.004);
  const out = new Uint8Array(img.rgb.length);
  for (let p = 0; p < w * h; p++) {
    const t = 1 + 0.025 * fibres[p]!;
    const dot = rng.next() < speckle ? rng.between(0.3, 0.7) : 1;
    for (let c = 0; c < 3; c++) {
      const n = colourNoise ? rng.normal() * 2 : 0;
      out[p * 3 + c] = clamp255(img.rgb[p * 3 + c]! * tint[c]! * t * dot + n);
    }
  }
  return { rgb: out, width: w, height: h };
}
