import type { NormalizedImage } from '../image/normalize.ts';
import { type Box, clampBox, type Grey, quantile, toGrey } from './pixels.ts';
import type { TamperTextBox } from './types.ts';

/**
 * Signs read from the text fields: `font_inconsistency` (one glyph of another size inside a
 * field) and `field_overwritten` (the field's background differs from the document around it).
 * Both need the field boxes from the reading step.
 */

/** Fields printed in capitals or digits only, where every glyph has the same height. */
const UNIFORM_HEIGHT_FIELDS = /^(document_number|date_of_birth|date_of_expiry|date_of_issue|mrz.*|surname)$/;

/** Below this glyph height (px) JPEG and resampling make height measures unreliable. */
const MIN_GLYPH_HEIGHT = 12;
/**
 * A glyph whose height differs from the field's median by more than 22 % is from another
 * font or size: within one typeface, capitals and digits agree to a few percent, and a
 * ±1 px measurement error on a 12 px glyph is 8 %.
 */
export const GLYPH_HEIGHT_TOLERANCE = 0.22;

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

function cropGrey(g: Grey, box: Box): Grey {
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
 * Largest relative deviation of a glyph height from the field's median, or null when the field
 * has too few measurable glyphs. Punctuation (under 40 % of the tallest glyph) and thin
 * slanted strokes ('/', taller than digits in many fonts) are left out.
 */
export function glyphHeightDeviation(image: NormalizedImage, box: Box, grey = toGrey(image)): number | null {
  const crop = cropGrey(grey, box);
  const all = glyphs(crop);
  const tallest = Math.max(0, ...all.map((g) => g.h));
  const letters = all.filter(
    (g) => g.h >= 0.4 * tallest && g.h >= MIN_GLYPH_HEIGHT && g.w >= 0.2 * g.h && g.h < crop.height,
  );
  if (letters.length < 4) return null;
  const med = quantile(
    letters.map((g) => g.h),
    0.5,
  );
  return Math.max(...letters.map((g) => Math.abs(g.h - med) / med));
}

/**
 * Background of a field vs. the document right around it: the difference of the background
 * (non-ink) medians in grey levels. A field erased and re-typed shows a differently toned patch
 * (correction fluid, a pasted label, a digitally filled rectangle).
 */
export function fieldBackgroundContrast(grey: Grey, box: Box): { toneDiff: number } | null {
  const margin = Math.max(4, Math.round(box.h * 0.6));
  const inner = clampBox(box, grey.width, grey.height);
  const outer = clampBox(
    { x: box.x - margin, y: box.y - margin, w: box.w + 2 * margin, h: box.h + 2 * margin },
    grey.width,
    grey.height,
  );
  if (inner.w < 8 || inner.h < 8) return null;
  const inside: number[] = [];
  const ring: number[] = [];
  for (let y = outer.y; y < outer.y + outer.h; y++) {
    for (let x = outer.x; x < outer.x + outer.w; x++) {
      const v = grey.data[y * grey.width + x]!;
      const inBox = x >= inner.x && x < inner.x + inner.w && y >= inner.y && y < inner.y + inner.h;
      (inBox ? inside : ring).push(v);
    }
  }
  if (ring.length < 50) return null;
  const t = otsu([...inside, ...ring]);
  const bgIn = inside.filter((v) => v >= t);
  const bgOut = ring.filter((v) => v >= t);
  if (bgIn.length < 20 || bgOut.length < 20) return null;
  return { toneDiff: Math.abs(quantile(bgIn, 0.5) - quantile(bgOut, 0.5)) };
}

/**
 * A field counts as overwritten when its background tone differs by more than 25 grey levels
 * from the surrounding ring: printed backgrounds are continuous across a field, and lighting
 * gradients change by a few levels over a field's height. (Comparing texture as well was
 * left out: the ink of the field itself dominates any texture measure of the box.)
 */
export const FIELD_TONE_DIFF = 25;

export function isUniformHeightField(field: string): boolean {
  return UNIFORM_HEIGHT_FIELDS.test(field);
}

/** Accepts `context.textBoxes` when it has the expected shape; anything else is ignored. */
export function parseTextBoxes(value: unknown): TamperTextBox[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (b): b is TamperTextBox =>
      typeof b === 'object' &&
      b !== null &&
      typeof b.field === 'string' &&
      (b.side === 'front' || b.side === 'back') &&
      ['x', 'y', 'w', 'h'].every((k) => typeof b[k] === 'number' && Number.isFinite(b[k])),
  );
}
