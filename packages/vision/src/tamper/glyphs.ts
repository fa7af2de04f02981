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
  let inkCount = 0;
  for (let i = 0; i < ink.length; i++) {
    ink[i] = crop.data[i]! < t ? 1 : 0;
    inkCount += ink[i]!;
  }
  const seen = new Uint8Array(w * h);
  const out: Glyph[] = [];
  // Each ink pixel enters the stack once (marked seen when pushed): a fixed typed buffer, and
  // the 8 neighbours tested one by one, where a number[] stack and a loop over offsets were
  // most of the font cue's time. The same neighbours in the same order: the same components.
  const stack = new Int32Array(inkCount);
  for (let s = 0; s < ink.length; s++) {
    if (!ink[s] || seen[s]) continue;
    let minX = w;
    let maxX = 0;
    let minY = h;
    let maxY = 0;
    let count = 0;
    let edge = 0;
    let top = 0;
    stack[top++] = s;
    seen[s] = 1;
    while (top > 0) {
      const p = stack[--top]!;
      const x = p % w;
      const y = (p - x) / w;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
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
      const left = x > 0;
      const right = x < w - 1;
      if (y > 0) {
        const r = p - w;
        if (left && ink[r - 1] && !seen[r - 1]) {
          seen[r - 1] = 1;
          stack[top++] = r - 1;
        }
        if (ink[r] && !seen[r]) {
          seen[r] = 1;
          stack[top++] = r;
        }
        if (right && ink[r + 1] && !seen[r + 1]) {
          seen[r + 1] = 1;
          stack[top++] = r + 1;
        }
      }
      if (left && ink[p - 1] && !seen[p - 1]) {
        seen[p - 1] = 1;
        stack[top++] = p - 1;
      }
      if (right && ink[p + 1] && !seen[p + 1]) {
        seen[p + 1] = 1;
        stack[top++] = p + 1;
      }
      if (y < h - 1) {
        const r = p + w;
        if (left && ink[r - 1] && !seen[r - 1]) {
          seen[r - 1] = 1;
          stack[top++] = r - 1;
        }
        if (ink[r] && !seen[r]) {
          seen[r] = 1;
          stack[top++] = r;
        }
        if (right && ink[r + 1] && !seen[r + 1]) {
          seen[r + 1] = 1;
          stack[top++] = r + 1;
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
