import { type GreyImage, toGrey } from '../image/grey.ts';
import type { NormalizedImage } from '../image/normalize.ts';
import { type Box, clampBox, dist, type Quad } from '../image/raster.ts';
import { quantile } from '../image/stats.ts';
import { INSIDE, RegionSamples } from './region-samples.ts';
import { warpQuadGrey } from './straighten.ts';

/**
 * `field_overwritten`, background cue: the field's background differs from the document right
 * around it (correction fluid, a pasted label, a digitally filled rectangle).
 */

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
  grey: GreyImage | null,
  box: Box & { quad?: [number, number][] },
  image?: NormalizedImage,
  straightened?: RingCanvas,
): { toneDiff: number } | null {
  // `grey` (the photo's grey image) is read only for a box measured without its quad.
  const ring = box.quad && image ? (straightened ?? straightenedWithRing(image, box.quad)) : null;
  const { canvas, inner, margin } = ring ?? axisAlignedRing(grey ?? toGrey(image!), box);
  if (inner.w < 8 || inner.h < 8) return null;
  const gap = ringGap(inner.h);
  const outer = clampBox(
    { x: inner.x - margin, y: inner.y - margin, w: inner.w + 2 * margin, h: inner.h + 2 * margin },
    canvas.width,
    canvas.height,
  );
  const sizes = ringRegionSizes(outer.y, outer.y + outer.h, outer.x, outer.x + outer.w, inner, gap);
  if (sizes[INSIDE]! < 20) return null;
  // A straightened field's own tone is its canvas's (fieldPaperTone, shared with the other field
  // cues): its pixels are not collected again here.
  const samples = new RegionSamples(ring ? [...sizes.slice(0, INSIDE), 0] : sizes);
  const spans = new Int32Array(RING_SPANS_MAX * 3);
  for (let y = outer.y; y < outer.y + outer.h; y++) {
    const row = y * canvas.width;
    for (let s = 0, n = ringSpans(y, outer.x, outer.x + outer.w, inner, gap, spans); s < n; s++) {
      const region = spans[3 * s]!;
      if (ring && region === INSIDE) continue;
      for (let x = spans[3 * s + 1]!, end = spans[3 * s + 2]!; x < end; x++)
        samples.add(region, canvas.data[row + x]!);
    }
  }
  const regions = samples.split();
  // Paper tone of each region: its 75th percentile. Ink, guilloche and shadows are darker than
  // the paper and cover well under a quarter of a ring part and under half of a field, so this
  // is paper in both; unlike a single ink/paper split of everything, it does not mistake a
  // white patch's slight overhang into the ring for the ring's paper.
  const toneIn = ring ? fieldPaperTone(ring) : quantile(regions[INSIDE]!, PAPER_QUANTILE);
  let least: number | null = null;
  for (const part of regions.slice(0, INSIDE)) {
    // A part clipped away by the photo's edge says nothing.
    if (part.length < 20) continue;
    const diff = Math.abs(toneIn - quantile(part, PAPER_QUANTILE));
    least = least === null ? diff : Math.min(least, diff);
  }
  return least === null ? null : { toneDiff: least };
}

/** The paper's tone in a region: its 75th percentile (fieldBackgroundContrast says why). */
const PAPER_QUANTILE = 0.75;

/** At most this many spans in a row (ringSpans): before, inside and after the box. */
export const RING_SPANS_MAX = 3;

/**
 * Where the pixels of one row lie around a field box: inside it (INSIDE), in one of the four ring
 * parts (0 above, 1 below, 2 before, 3 after), or in the gap between the box and its ring (left
 * out). The columns x0 ≤ x < x1 of row `y` are written to `out` as spans of one region each, in
 * increasing x, as (region, start, end) triples; returns their count. The field cues take a
 * region per span rather than per pixel (the ring's pixels are most of their canvas). Integer
 * boxes and gap, as the field cues' canvases have.
 */
export function ringSpans(
  y: number,
  x0: number,
  x1: number,
  inner: Box,
  gap: number,
  out: Int32Array,
): number {
  const left = inner.x;
  const right = inner.x + inner.w - 1;
  const top = inner.y;
  const bottom = inner.y + inner.h - 1;
  let n = 0;
  const span = (region: number, a: number, b: number) => {
    const start = Math.max(x0, a);
    const end = Math.min(x1, b);
    if (end <= start) return;
    out[3 * n] = region;
    out[3 * n + 1] = start;
    out[3 * n + 2] = end;
    n++;
  };
  if (y < top || y > bottom) {
    // Above or below the box: the whole row a gap away, else only the columns beyond the gap
    // on either side (the box's corners of the ring).
    const region = y < top ? 0 : 1;
    if ((y < top ? top - y : y - bottom) > gap) span(region, x0, x1);
    else {
      span(region, x0, left - gap);
      span(region, right + gap + 1, x1);
    }
  } else {
    span(2, x0, left - gap);
    span(INSIDE, left, right + 1);
    span(3, right + gap + 1, x1);
  }
  return n;
}

/**
 * How many pixels of the rows y0 ≤ y < y1 and columns x0 ≤ x < x1 lie in each region (0 above,
 * 1 below, 2 before, 3 after, INSIDE; ringSpans' spans summed): a RegionSamples' capacities.
 */
export function ringRegionSizes(
  y0: number,
  y1: number,
  x0: number,
  x1: number,
  inner: Box,
  gap: number,
): number[] {
  const sizes = [0, 0, 0, 0, 0];
  const spans = new Int32Array(RING_SPANS_MAX * 3);
  for (let y = y0; y < y1; y++)
    for (let s = 0, n = ringSpans(y, x0, x1, inner, gap, spans); s < n; s++)
      sizes[spans[3 * s]!]! += spans[3 * s + 2]! - spans[3 * s + 1]!;
  return sizes;
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

/** A field and its ring on a canvas of their own: the field is `inner`, the ring `margin` wide around it. */
export interface RingCanvas {
  canvas: GreyImage;
  inner: Box;
  margin: number;
}

/** fieldPaperTone's values, per canvas (a canvas is made once per quad and step). */
const paperTones = new WeakMap<RingCanvas, number>();

/**
 * The paper tone of a straightened field: the 75th percentile (PAPER_QUANTILE) of the field's
 * pixels on its canvas, taken once per canvas. The text-line test (paper against ink), the tone
 * cue (the field's tone against its ring's) and the in-painting cue (ink as what lies well under
 * the paper) each took this same rank of the same pixels.
 */
export function fieldPaperTone(ring: RingCanvas): number {
  let tone = paperTones.get(ring);
  if (tone === undefined) {
    const { canvas, inner } = ring;
    const values = new Float32Array(inner.w * inner.h);
    for (let y = inner.y, n = 0; y < inner.y + inner.h; y++)
      values.set(
        canvas.data.subarray(y * canvas.width + inner.x, y * canvas.width + inner.x + inner.w),
        n++ * inner.w,
      );
    tone = quantile(values, PAPER_QUANTILE);
    paperTones.set(ring, tone);
  }
  return tone;
}

/**
 * A read line's own frame: its length `w` and height `h` in pixels (the quad's top and left
 * edges, corners TL, TR, BR, BL), and `at(p, da, dc)`, the point `da` pixels along the line and
 * `dc` across it from the image point `p`: what straightens a line with the page around it.
 */
export function lineFrame(quad: [number, number][]) {
  const q = quad as Quad;
  const w = Math.max(1, Math.round(dist(q[0], q[1])));
  const h = Math.max(1, Math.round(dist(q[0], q[3])));
  const a: [number, number] = [(q[1][0] - q[0][0]) / w, (q[1][1] - q[0][1]) / w];
  const c: [number, number] = [(q[3][0] - q[0][0]) / h, (q[3][1] - q[0][1]) / h];
  const at = (p: [number, number], da: number, dc: number): [number, number] => [
    p[0] + da * a[0] + dc * c[0],
    p[1] + da * a[1] + dc * c[1],
  ];
  return { quad: q, w, h, at };
}

/** The field and its ring, straightened along the field's quad (corners TL, TR, BR, BL). */
export function straightenedWithRing(image: NormalizedImage, quad: [number, number][]): RingCanvas {
  const { quad: q, w, h, at } = lineFrame(quad);
  const m = ringMargin(h);
  const grown: Quad = [at(q[0], -m, -m), at(q[1], m, -m), at(q[2], m, m), at(q[3], -m, m)];
  return {
    canvas: warpQuadGrey(image, grown, w + 2 * m, h + 2 * m),
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
