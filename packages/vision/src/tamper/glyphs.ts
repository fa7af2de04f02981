import type { NormalizedImage } from '../image/normalize.ts';
import { dist, type Quad, warpQuad } from '../image/raster.ts';
import { type Box, clampBox, type Grey, quantile } from './pixels.ts';

/** Glyphs of a text field: the ink split, its connected components, the field straightened. */

/** Otsu threshold of grey values (0..255). */
export function otsu(values: Float32Array | number[]): number {
  const hist = new Float64Array(256);
  for (const v of values) hist[Math.max(0, Math.min(255, Math.round(v)))]!++;
  const total = values.length;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * hist[i]!;
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    wB += hist[t]!;
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += t * hist[t]!;
    const mB = sumB / wB;
    const mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) ** 2;
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}

export function cropGrey(g: Grey, box: Box): Grey {
  const b = clampBox(box, g.width, g.height);
  const data = new Float32Array(b.w * b.h);
  for (let y = 0; y < b.h; y++)
    data.set(g.data.subarray((b.y + y) * g.width + b.x, (b.y + y) * g.width + b.x + b.w), y * b.w);
  return { data, width: b.w, height: b.h };
}

export interface Glyph {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Dark connected components (8-neighbour) of a field crop: the glyphs, roughly. Ink is what
 * is darker than halfway between the darkest 5 % (the text) and the median (the background):
 * fine security print (guilloche) is lighter than that and stays out, where a plain Otsu
 * split would often glue it to the letters.
 */
export function glyphs(crop: Grey): Glyph[] {
  const t = Math.min(otsu(crop.data), (quantile(crop.data, 0.05) + quantile(crop.data, 0.5)) / 2);
  const { width: w, height: h } = crop;
  const ink = new Uint8Array(w * h);
  for (let i = 0; i < ink.length; i++) ink[i] = crop.data[i]! < t ? 1 : 0;
  const seen = new Uint8Array(w * h);
  const out: Glyph[] = [];
  const stack: number[] = [];
  for (let s = 0; s < ink.length; s++) {
    if (!ink[s] || seen[s]) continue;
    let minX = w;
    let maxX = 0;
    let minY = h;
    let maxY = 0;
    stack.push(s);
    seen[s] = 1;
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % w;
      const y = (p - x) / w;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const q = ny * w + nx;
          if (ink[q] && !seen[q]) {
            seen[q] = 1;
            stack.push(q);
          }
        }
      }
    }
    out.push({ x: minX, y: minY, w: maxX - minX + 1, h: maxY - minY + 1 });
  }
  return out;
}

/**
 * The field straightened along its quad, at the photo's own scale: on a tilted photo an
 * axis-aligned crop makes every glyph's bounding box taller by its width × sin(tilt), so glyph
 * heights must be measured perpendicular to the text direction, not in image rows.
 */
export function uprightField(image: NormalizedImage, quad: [number, number][], scale = 1): Grey {
  const q = quad as Quad;
  const w = Math.max(8, Math.round(scale * dist(q[0], q[1])));
  const h = Math.max(8, Math.round(scale * dist(q[0], q[3])));
  return toGreyRgb(warpQuad(image, q, w, h));
}

export function toGreyRgb(img: { rgb: Uint8Array; width: number; height: number }): Grey {
  const data = new Float32Array(img.width * img.height);
  for (let i = 0, p = 0; i < data.length; i++, p += 3)
    data[i] = 0.299 * img.rgb[p]! + 0.587 * img.rgb[p + 1]! + 0.114 * img.rgb[p + 2]!;
  return { data, width: img.width, height: img.height };
}
