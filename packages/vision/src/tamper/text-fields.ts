import { cropGrey, type GreyImage, toGrey } from '../image/grey.ts';
import type { NormalizedImage } from '../image/normalize.ts';
import { type Box, clampBox, dist, type Quad, warpQuad } from '../image/raster.ts';
import { otsu, quantile } from '../image/stats.ts';
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
export function uprightField(image: NormalizedImage, quad: [number, number][]): GreyImage {
  const q = quad as Quad;
  const w = Math.max(8, Math.round(dist(q[0], q[1])));
  const h = Math.max(8, Math.round(dist(q[0], q[3])));
  return toGrey(warpQuad(image, q, w, h));
}

/**
 * Largest relative deviation of a glyph height from the field's capital height, or null when
 * the field has too few measurable glyphs. Punctuation (under 40 % of the tallest glyph) and
 * thin slanted strokes ('/', taller than digits in many fonts) are left out.
 *
 * The capital height is a straight line along the field (capitalHeightLine), not one median:
 * on a photo taken at an angle the text shrinks steadily with distance (8–20 % over a
 * 44-character MRZ line on the fixtures), while a glyph from another font breaks from the line.
 *
 * Shorter glyphs are ambiguous. In an MRZ line (`fillers`) the filler '<' is a legitimate glyph
 * 65–85 % of the capitals' height (the more, the smaller and blurrier the print), so only
 * glyphs taller than the capitals are measured there. In other fields a shorter glyph counts
 * when it stands on the baseline, as a substituted glyph is set; marks printed at mid-height
 * (hyphens) do not.
 */
export function glyphHeightDeviation(
  image: NormalizedImage,
  box: Box & { quad?: [number, number][] },
  grey = toGrey(image),
  opts: { fillers?: boolean } = {},
): number | null {
  const crop = box.quad ? uprightField(image, box.quad) : cropGrey(grey, box);
  const all = glyphs(crop);
  const tallest = Math.max(0, ...all.map((g) => g.h));
  const letters = all.filter(
    (g) => g.h >= 0.4 * tallest && g.h >= MIN_GLYPH_HEIGHT && g.w >= 0.2 * g.h && g.h < crop.height,
  );
  if (letters.length < 4) return null;
  const capitals = capitalHeightLine(letters);
  if (!capitals) return null;
  const capitalAt = (g: Glyph) => capitals.at + capitals.slope * (g.x + g.w / 2);
  const baseline = quantile(
    capitals.inliers.map((g) => g.y + g.h),
    0.5,
  );
  let worst = 0;
  for (const g of letters) {
    const expected = capitalAt(g);
    if (expected <= 0) continue;
    const deviation = (g.h - expected) / expected;
    if (deviation < 0) {
      if (opts.fillers) continue;
      if (baseline - (g.y + g.h) > BASELINE_TOLERANCE * expected) continue;
    }
    worst = Math.max(worst, Math.abs(deviation));
  }
  return worst;
}

/**
 * The capitals' height along the field, h = at + slope·x, fitted by least squares on the glyphs
 * within ±10 % of the current fit (three rounds, starting from the glyphs near the field's tall
 * ones): fillers, punctuation and an odd glyph are left out of the fit, so they cannot pull it.
 * Null when fewer than 4 glyphs agree on a line.
 */
export function capitalHeightLine(letters: Glyph[]): { at: number; slope: number; inliers: Glyph[] } | null {
  const top = quantile(
    letters.map((g) => g.h),
    0.9,
  );
  let inliers = letters.filter((g) => g.h >= 0.85 * top && g.h <= 1.15 * top);
  let fit = { at: top, slope: 0 };
  for (let round = 0; round < 3; round++) {
    if (inliers.length < 4) return null;
    fit = lineFit(inliers);
    const f = fit;
    inliers = letters.filter((g) => {
      const e = f.at + f.slope * (g.x + g.w / 2);
      return Math.abs(g.h - e) <= CAPITAL_FIT_BAND * e;
    });
  }
  return inliers.length < 4 ? null : { ...fit, inliers };
}

function lineFit(gs: Glyph[]): { at: number; slope: number } {
  const xs = gs.map((g) => g.x + g.w / 2);
  const mx = xs.reduce((a, b) => a + b, 0) / gs.length;
  const my = gs.reduce((a, g) => a + g.h, 0) / gs.length;
  let sxy = 0;
  let sxx = 0;
  gs.forEach((g, i) => {
    sxy += (xs[i]! - mx) * (g.h - my);
    sxx += (xs[i]! - mx) ** 2;
  });
  const slope = sxx > 0 ? sxy / sxx : 0;
  return { at: my - slope * mx, slope };
}

/** Glyphs within ±10 % of the fitted capital height count as capitals (±1–2 px at 12–20 px). */
const CAPITAL_FIT_BAND = 0.1;
/** A shorter glyph whose bottom is within 8 % of the capital height of the baseline stands on it (±1–2 px). */
const BASELINE_TOLERANCE = 0.08;

/**
 * Background of a field vs. the document right around it: the difference of the background
 * (non-ink) medians in grey levels. A field erased and re-typed shows a differently toned patch
 * (correction fluid, a pasted label, a digitally filled rectangle).
 *
 * The ring around the field is measured in four parts (above, below, before and after the
 * value along its line) and the smallest difference is kept: a patch over a field differs from
 * the document on every side, while a white entry field of a printed or rendered form carries
 * on along the line beyond the value it holds (and a band of security print runs across it),
 * so some part of the ring matches the value's background. When the box has a `quad`, the
 * field and its ring are measured on the field straightened along it (tilted photos).
 */
export function fieldBackgroundContrast(
  grey: GreyImage,
  box: Box & { quad?: [number, number][] },
  image?: NormalizedImage,
): { toneDiff: number } | null {
  const { canvas, inner, margin } =
    box.quad && image ? straightenedWithRing(image, box.quad) : axisAlignedRing(grey, box);
  if (inner.w < 8 || inner.h < 8) return null;
  const gap = ringGap(inner.h);
  const inside: number[] = [];
  const parts: number[][] = [[], [], [], []]; // above, below, before, after
  const outer = clampBox(
    { x: inner.x - margin, y: inner.y - margin, w: inner.w + 2 * margin, h: inner.h + 2 * margin },
    canvas.width,
    canvas.height,
  );
  for (let y = outer.y; y < outer.y + outer.h; y++) {
    for (let x = outer.x; x < outer.x + outer.w; x++) {
      const region = ringRegion(x, y, inner, gap);
      if (region === null) continue;
      const v = canvas.data[y * canvas.width + x]!;
      if (region === 'inside') inside.push(v);
      else parts[region]!.push(v);
    }
  }
  if (inside.length < 20) return null;
  // Paper tone of each region: its 75th percentile. Ink, guilloche and shadows are darker than
  // the paper and cover well under a quarter of a ring part and under half of a field, so this
  // is paper in both; unlike a single ink/paper split of everything, it does not mistake a
  // white patch's slight overhang into the ring for the ring's paper.
  const toneIn = quantile(inside, PAPER_QUANTILE);
  let least: number | null = null;
  for (const part of parts) {
    // A part clipped away by the photo's edge says nothing.
    if (part.length < 20) continue;
    const diff = Math.abs(toneIn - quantile(part, PAPER_QUANTILE));
    least = least === null ? diff : Math.min(least, diff);
  }
  return least === null ? null : { toneDiff: least };
}

const PAPER_QUANTILE = 0.75;

/**
 * Where a canvas pixel lies around a field box: inside it, in one of the four ring parts (0 above,
 * 1 below, 2 before, 3 after), or null in the gap between the box and its ring.
 */
export function ringRegion(x: number, y: number, inner: Box, gap: number): 'inside' | 0 | 1 | 2 | 3 | null {
  const out = Math.max(inner.x - x, x - (inner.x + inner.w - 1), inner.y - y, y - (inner.y + inner.h - 1));
  if (out > 0 && out <= gap) return null;
  if (y < inner.y) return 0;
  if (y >= inner.y + inner.h) return 1;
  if (x < inner.x) return 2;
  if (x >= inner.x + inner.w) return 3;
  return 'inside';
}

/**
 * The ring around a field starts a gap away from the field's box (a fifth of its height, at
 * least 2 px: where a patch laid over the field overhangs it, and where the box, drawn from
 * character positions, may be a little short) and reaches 0.6 of the height (at least 4 px)
 * beyond the gap.
 */
export const ringGap = (height: number) => Math.max(2, Math.round(height * 0.2));
const ringMargin = (height: number) => ringGap(height) + Math.max(4, Math.round(height * 0.6));

function axisAlignedRing(grey: GreyImage, box: Box) {
  return { canvas: grey, inner: clampBox(box, grey.width, grey.height), margin: ringMargin(box.h) };
}

/** The field and its ring, straightened along the field's quad (corners TL, TR, BR, BL). */
export function straightenedWithRing(image: NormalizedImage, quad: [number, number][]) {
  const q = quad as Quad;
  const w = Math.max(1, Math.round(dist(q[0], q[1])));
  const h = Math.max(1, Math.round(dist(q[0], q[3])));
  const m = ringMargin(h);
  const a: [number, number] = [(q[1][0] - q[0][0]) / w, (q[1][1] - q[0][1]) / w];
  const c: [number, number] = [(q[3][0] - q[0][0]) / h, (q[3][1] - q[0][1]) / h];
  const at = (p: [number, number], da: number, dc: number): [number, number] => [
    p[0] + da * a[0] + dc * c[0],
    p[1] + da * a[1] + dc * c[1],
  ];
  const grown: Quad = [at(q[0], -m, -m), at(q[1], m, -m), at(q[2], m, m), at(q[3], -m, m)];
  return {
    canvas: toGrey(warpQuad(image, grown, w + 2 * m, h + 2 * m)),
    inner: { x: m, y: m, w, h },
    margin: m,
  };
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

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Four finite [x, y] corners. */
export function isQuad(q: unknown): q is [number, number][] {
  return (
    Array.isArray(q) &&
    q.length === 4 &&
    q.every((p) => Array.isArray(p) && p.length === 2 && finite(p[0]) && finite(p[1]))
  );
}

/**
 * Accepts `context.textBoxes` when it has the expected shape; anything else is ignored. A box
 * is given by its bounds (`x y w h`), by its `quad` (the reading step's field boxes), or both.
 */
export function parseTextBoxes(value: unknown): TamperTextBox[] {
  if (!Array.isArray(value)) return [];
  const out: TamperTextBox[] = [];
  for (const b of value) {
    if (typeof b !== 'object' || b === null) continue;
    if (typeof b.field !== 'string' || (b.side !== 'front' && b.side !== 'back')) continue;
    const quad: [number, number][] | undefined = isQuad(b.quad) ? b.quad : undefined;
    const confidence = finite(b.confidence) ? b.confidence : undefined;
    let bounds: Box;
    if (['x', 'y', 'w', 'h'].every((k) => finite(b[k]))) bounds = { x: b.x, y: b.y, w: b.w, h: b.h };
    else if (quad) {
      const xs = quad.map((p) => p[0]);
      const ys = quad.map((p) => p[1]);
      bounds = {
        x: Math.min(...xs),
        y: Math.min(...ys),
        w: Math.max(...xs) - Math.min(...xs),
        h: Math.max(...ys) - Math.min(...ys),
      };
    } else continue;
    out.push({
      field: b.field,
      side: b.side,
      ...bounds,
      ...(quad ? { quad } : {}),
      ...(confidence !== undefined ? { confidence } : {}),
    });
  }
  return out;
}
