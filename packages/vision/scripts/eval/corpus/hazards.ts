import type { RgbImage } from '../../../src/image/raster.ts';
import { blurRgb, clamp255, copyRgb, drawSvg, smoothField } from './raster-io.ts';
import type { Rng } from './rng.ts';
import type { GenuineSource, Rect } from './types.ts';

/**
 * What happens to genuine documents and their photos and is no forgery: a lamp's reflection,
 * a shaky or defocused shot, a dim room or a blown-out exposure, and, on the document itself,
 * wear, ink stamps and handwriting across the printed values. The spec: these never fail the
 * tamper check on their own (the Niger paper card carries all of them by nature). Used by
 * `bona-fide-hazards.ts` to look for cues that take them for forgeries.
 */
export type Hazard = 'glare' | 'blur' | 'marks' | 'dim' | 'bright';
export const HAZARDS: Hazard[] = ['glare', 'blur', 'marks', 'dim', 'bright'];

/**
 * A lamp reflected by the document: an elliptical spot whose core the sensor clips to white,
 * fading into the picture around it. Applied to the captured picture (the camera clips, not the
 * paper), centred on the document (`around`, in the picture's pixels), 6–12 % of the picture's
 * short side across, the same size as the glare the capture sign reports.
 */
export function addGlare(img: RgbImage, rng: Rng, around: Rect): RgbImage {
  const out = copyRgb(img);
  const { width: W, height: H, rgb } = out;
  const short = Math.min(W, H);
  const cx = around.x + around.w * rng.between(0.25, 0.75);
  const cy = around.y + around.h * rng.between(0.25, 0.75);
  const rx = short * rng.between(0.06, 0.12);
  const ry = rx * rng.between(0.5, 1);
  // Core (d ≤ 1) clipped white; halo out to 2 radii, white blended in by (2 − d)².
  for (let y = Math.max(0, Math.floor(cy - 2 * ry)); y < Math.min(H, cy + 2 * ry); y++) {
    for (let x = Math.max(0, Math.floor(cx - 2 * rx)); x < Math.min(W, cx + 2 * rx); x++) {
      const d = Math.hypot((x - cx) / rx, (y - cy) / ry);
      if (d >= 2) continue;
      const a = d <= 1 ? 1 : (2 - d) ** 2;
      const i = (y * W + x) * 3;
      for (let c = 0; c < 3; c++) rgb[i + c] = clamp255(rgb[i + c]! + a * (255 - rgb[i + c]!));
    }
  }
  return out;
}

/** A shaky or defocused shot: the whole capture blurred again, sigma 1.8–3.2 px. */
export function addBlur(img: RgbImage, rng: Rng): Promise<RgbImage> {
  return blurRgb(img, rng.between(1.8, 3.2));
}

/**
 * A shot in a dim room, as a phone delivers it: its noise reduction smooths the luma a little,
 * smears the colour noise into blotches and, to hide them, takes 20–45 % of the colour out of the
 * whole picture (chroma noise reduction); what noise is left is luma grain of 3–6 levels; the
 * exposure stays a little under. Phone captures at night or under a weak bulb look like this,
 * and they mute a genuine document's colour the way a colour copy does.
 */
export async function addLowLight(img: RgbImage, rng: Rng): Promise<RgbImage> {
  const out = await blurRgb(img, rng.between(0.6, 1.0));
  const { width: W, height: H, rgb } = out;
  const keep = rng.between(0.55, 0.8);
  const exposure = rng.between(0.8, 0.95);
  const grain = rng.between(3, 6);
  const blotch = rng.between(2, 5);
  const cells = Math.max(4, Math.round(Math.max(W, H) / rng.between(8, 20)));
  const blotches = [smoothField(W, H, cells, rng.next), smoothField(W, H, cells, rng.next)];
  for (let p = 0; p < W * H; p++) {
    const i = p * 3;
    const luma = 0.299 * rgb[i]! + 0.587 * rgb[i + 1]! + 0.114 * rgb[i + 2]!;
    const l = rng.normal() * grain;
    // Colour blotches: red-green and blue-yellow offsets that keep the luma about the same.
    const rg = blotch * blotches[0]![p]!;
    const by = blotch * blotches[1]![p]!;
    const shift = [rg - by / 2, -rg / 2 - by / 2, by];
    for (let c = 0; c < 3; c++)
      rgb[i + c] = clamp255(exposure * (luma + keep * (rgb[i + c]! - luma)) + l + shift[c]!);
  }
  return out;
}

/**
 * A blown-out exposure (a bright window, the phone metering on a dark table): the whole picture
 * 25–60 % too bright, each channel clipped at white, which whitens the pale tints of a security
 * background first.
 */
export function addOverexposure(img: RgbImage, rng: Rng): RgbImage {
  const out = copyRgb(img);
  const gain = rng.between(1.25, 1.6);
  for (let i = 0; i < out.rgb.length; i++) out.rgb[i] = clamp255(out.rgb[i]! * gain);
  return out;
}

/**
 * Wear, stamps and handwriting on the document (its own pixels, before the capture): an ink
 * stamp over one printed value, ballpoint scribbles across another, a fingerprint, brown stains
 * and a crease. What a genuine document carries after years in a wallet and a few offices.
 */
export function addMarks(source: GenuineSource, rng: Rng): Promise<RgbImage> {
  const { width, height } = source.image;
  const parts: string[] = [];
  const fields = source.boxes.fields;
  const ink = rng.pick(['#4a3b8f', '#2f4f9f', '#6b3a7a', '#7a2f3a']);
  const pen = rng.pick(['#1d2f8a', '#16306e', '#222222']);
  const stampOn = fields.length ? rng.pick(fields).box : { x: width / 2, y: height / 2, w: 80, h: 20 };
  const r = Math.max(40, Math.min(width, height) * rng.between(0.08, 0.12));
  const sx = stampOn.x + stampOn.w * rng.between(0.2, 0.8);
  const sy = stampOn.y + stampOn.h / 2;
  parts.push(
    `<g opacity="${rng.between(0.45, 0.8).toFixed(2)}" fill="none" stroke="${ink}">`,
    `<circle cx="${sx}" cy="${sy}" r="${r}" stroke-width="5"/>`,
    `<circle cx="${sx}" cy="${sy}" r="${r * 0.7}" stroke-width="2"/>`,
    `<text x="${sx - r * 0.55}" y="${sy + r * 0.12}" font-family="DejaVu Sans" font-size="${r * 0.32}" fill="${ink}" stroke="none">OFFICIEL</text>`,
    '</g>',
  );
  const writeOn = fields.length ? rng.pick(fields).box : { x: width / 3, y: height / 3, w: 120, h: 24 };
  let d = `M ${writeOn.x} ${writeOn.y + writeOn.h * 0.7}`;
  for (let i = 0; i < 7; i++)
    d += ` q ${rng.between(5, 20)} ${rng.between(-writeOn.h, writeOn.h)} ${rng.between(12, 30)} ${rng.between(-6, 6)}`;
  parts.push(`<path d="${d}" stroke="${pen}" stroke-width="2.2" fill="none"/>`);
  const fx = rng.between(0.1, 0.9) * width;
  const fy = rng.between(0.1, 0.9) * height;
  for (let k = 1; k <= 9; k++)
    parts.push(
      `<ellipse cx="${fx}" cy="${fy}" rx="${k * 3.2}" ry="${k * 4.2}" fill="none" stroke="#3a3030" stroke-width="1.2" opacity="0.35"/>`,
    );
  for (let i = 0; i < 5; i++)
    parts.push(
      `<ellipse cx="${rng.between(0, width)}" cy="${rng.between(0, height)}" rx="${rng.between(20, 110)}" ry="${rng.between(20, 110)}" fill="#8a6a3a" opacity="${rng.between(0.04, 0.12).toFixed(2)}"/>`,
    );
  const cy = rng.between(0.3, 0.7) * height;
  parts.push(
    `<line x1="0" y1="${cy}" x2="${width}" y2="${cy + rng.between(-12, 12)}" stroke="#9a9382" stroke-width="3" opacity="0.5"/>`,
  );
  return drawSvg(source.image, parts.join(''));
}
