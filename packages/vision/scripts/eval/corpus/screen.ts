import type { RgbImage } from '../../../src/image/raster.ts';
import { clamp255, resizeTo } from './raster-io.ts';
import type { Rng } from './rng.ts';

/**
 * The document shown on a screen and photographed by a camera: the screen's subpixels (LCD
 * stripes with a dark gap between rows, or an OLED's diamond layout), sampled by the camera's
 * pixels at a ratio that is rarely a whole number (moiré), slightly rotated, with the lens's
 * colour fringes, rolling refresh bands, the screen's black bezel and a reflection of the room.
 * The camera's own blur, noise, white balance and JPEG are added afterwards (phone capture).
 */
export async function screenRecapture(img: RgbImage, rng: Rng): Promise<RgbImage> {
  const sw = Math.round(rng.between(600, 950));
  const sh = Math.round((img.height * sw) / img.width);
  const screen = await resizeTo(img, sw, sh);
  const oled = rng.next() < 0.4;
  const cps = rng.between(1.3, 2.6); // camera pixels per screen pixel
  const w = Math.round(sw * cps * rng.between(1.06, 1.15));
  const h = Math.round(sh * cps * rng.between(1.06, 1.15));
  const angle = (rng.between(-3, 3) * Math.PI) / 180;
  const [ca, sa] = [Math.cos(angle), Math.sin(angle)];
  const fringe = rng.between(0, 0.6); // camera px of red/blue shift at the frame's edge
  const band = { depth: rng.between(0.02, 0.12), period: rng.between(40, 220), phase: rng.between(0, 6.3) };
  const glow = { x: rng.between(0.1, 0.9) * w, y: rng.between(0.1, 0.9) * h, r: rng.between(0.15, 0.4) * w };
  const glowAlpha = rng.between(0, 0.18);
  const bezel = Math.round(rng.between(0.02, 0.05) * w);
  const out = new Uint8Array(w * h * 3);
  const S = 3;
  const acc = [0, 0, 0];
  for (let y = 0; y < h; y++) {
    const refresh = 1 - band.depth * (0.5 + 0.5 * Math.sin((2 * Math.PI * y) / band.period + band.phase));
    for (let x = 0; x < w; x++) {
      acc.fill(0);
      let onScreen = 0;
      for (let sy = 0; sy < S; sy++) {
        for (let sx = 0; sx < S; sx++) {
          const cx = x + (sx + 0.5) / S - w / 2;
          const cy = y + (sy + 0.5) / S - h / 2;
          for (let c = 0; c < 3; c++) {
            const f = 1 + ((c - 1) * fringe) / w; // lateral chromatic aberration
            const u = (ca * cx * f + sa * cy * f) / cps + sw / 2;
            const v = (-sa * cx * f + ca * cy * f) / cps + sh / 2;
            if (u < 0 || v < 0 || u >= sw || v >= sh) continue;
            if (c === 1) onScreen++;
            const px = Math.floor(u);
            const py = Math.floor(v);
            const fu = u - px;
            const fv = v - py;
            let lit: boolean;
            if (oled) {
              // Diamond layout: red and blue alternate on the half-pixel rows, green between.
              const half = (Math.floor(fu * 2) + Math.floor(fv * 2) + px + py) % 2;
              lit = c === 1 ? half === 0 : half === 1 && (c === 0) === ((px + py) % 2 === 0);
            } else {
              lit = fv > 0.1 && fv < 0.92 && Math.min(2, Math.floor(fu * 3)) === c;
            }
            if (lit) acc[c]! += (oled ? (c === 1 ? 2 : 4) : 3) * screen.rgb[(py * sw + px) * 3 + c]!;
          }
        }
      }
      const o = (y * w + x) * 3;
      const d2 = ((x - glow.x) ** 2 + (y - glow.y) ** 2) / glow.r ** 2;
      const reflection = 255 * glowAlpha * Math.exp(-d2);
      const edge = x < bezel || y < bezel || x >= w - bezel || y >= h - bezel;
      for (let c = 0; c < 3; c++) {
        const lit = onScreen > 0 ? (acc[c]! / (S * S)) * 0.92 * refresh + 8 : edge ? 70 : 18;
        out[o + c] = clamp255(lit + reflection);
      }
    }
  }
  return { rgb: out, width: w, height: h };
}
