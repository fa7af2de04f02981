import type { GreyImage } from '../image/grey.ts';
import type { NormalizedImage } from '../image/normalize.ts';
import { dist, type Quad } from '../image/raster.ts';
import { otsu, quantile } from '../image/stats.ts';
import { warpQuadGrey } from './straighten.ts';

/** Glyphs of a text field: the ink split, its connected components, the field straightened. */

export interface Glyph {
  x: number;
  y: number;
  w: number;
  h: number;
  /** Ink pixels of the component. */
  ink: number;
  /** Ink pixels with a non-ink 4-neighbour: the outline, twice a stroke's length. */
  edge: number;
}

/**
 * Dark connected components (8-neighbour) of a field crop: the glyphs, roughly. Ink is what
 * is darker than halfway between the darkest 5 % (the text) and the median (the background):
 * fine security print (guilloche) is lighter than that and stays out, where a plain Otsu
 * split would often glue it to the letters.
 */
export function glyphs(crop: GreyImage): Glyph[] {
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
    let count = 0;
    let edge = 0;
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
      count++;
      if (
        x === 0 ||
        y === 0 ||
        x === w - 1 ||
        y === h - 1 ||
        !ink[p - 1] ||
        !ink[p + 1] ||
        !ink[p - w] ||
        !ink[p + w]
      )
        edge++;
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
    out.push({ x: minX, y: minY, w: maxX - minX + 1, h: maxY - minY + 1, ink: count, edge });
  }
  return out;
}

/**
 * The field straightened along its quad, at the photo's own scale: on a tilted photo an
 * axis-aligned crop makes every glyph's bounding box taller by its width × sin(tilt), so glyph
 * heights must be measured perpendicular to the text direction, not in image rows.
 */
export function uprightField(image: NormalizedImage, quad: [number, number][], scale = 1): GreyImage {
  const q = quad as Quad;
  const w = Math.max(8, Math.round(scale * dist(q[0], q[1])));
  const h = Math.max(8, Math.round(scale * dist(q[0], q[3])));
  return warpQuadGrey(image, q, w, h);
}
