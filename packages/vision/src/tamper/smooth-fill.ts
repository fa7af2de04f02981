import type { NormalizedImage } from '../image/normalize.ts';
import { quantile, quantileRank } from '../image/stats.ts';
import {
  fieldPaperTone,
  RING_SPANS_MAX,
  type RingCanvas,
  ringGap,
  ringRegionSizes,
  ringSpans,
  straightenedWithRing,
} from './field-background.ts';
import { NearInk } from './near-ink.ts';
import { INSIDE, RegionSamples } from './region-samples.ts';
import { isQuad } from './text-boxes.ts';

/**
 * `field_overwritten`, second cue: text erased by digital in-painting and typed again. In-painting
 * fills the erased box from its border inwards, smoothly: the security print (guilloche,
 * microprint, fine patterns) that runs behind every other line of the document stops at the box.
 * So, on a line whose surroundings carry a printed pattern, the fine texture of the background
 * *between* the letters is compared with the texture around the line.
 *
 * Texture: median |Laplacian| (4 neighbours) of background pixels, the ink and a pixel around it
 * left out (ink edges are texture of another kind). Around: four ring parts (above, below,
 * before, after, a gap away from the box) and the *least* textured one counts, as for the tone
 * cue in field-background.ts: a line in a plain white entry field that runs on beyond the value has a
 * plain part of ring, and is not judged.
 */

/** Ink: this many grey levels below the line's paper tone (its 75th percentile). */
const INK_DEPTH = 40;
/** Pixels needed in the background between the letters and in a ring part to measure texture. */
const MIN_PIXELS = 30;
/**
 * The least textured ring part must carry at least this median |Laplacian|: a printed pattern.
 * Plain paper, clean scans and renders measure 0–3; guilloche behind the fixture lines 4–27.
 */
export const FILL_MIN_RING_TEXTURE = 5;
/**
 * Inside / ring texture under which the line's background counts as filled. Measured on the 30
 * bona fide fixture documents: lowest ratio 0.73 over the 193 lines with a textured ring; lines
 * in-painted in simulation (docs/benchmarks.md) measure 0.2–0.5.
 */
export const FILL_MAX_TEXTURE_RATIO = 0.5;
/** Ratio at which the sign is certain (strength 1). */
const FILL_UNMISTAKABLE_RATIO = 0.2;

export interface FillTexture {
  /** Median |Laplacian| of the background between the letters. */
  inside: number;
  /** The same in the least textured ring part. */
  ring: number;
}

/**
 * Texture of the background inside a text line and around it; null when too little to measure.
 *
 * With `plainRing` given (the sign's FILL_MIN_RING_TEXTURE), also null as soon as a ring part
 * (of MIN_PIXELS or more) is shown plainer than it: the least textured part, which the sign
 * reads, is under the bar then, and the sign none (smoothFillStrength). Most lines have such a
 * part (a plain entry field, plain paper above or below), and it shows once its rows are read:
 * the part above before the line's rows, those before and after it with them (ringSpans).
 */
export function measureFillTexture(
  image: NormalizedImage,
  quad: [number, number][],
  straightened: RingCanvas = straightenedWithRing(image, quad),
  plainRing = Number.NEGATIVE_INFINITY,
): FillTexture | null {
  const { canvas, inner } = straightened;
  const { data, width: W, height: H } = canvas;
  if (inner.w < 8 || inner.h < 8) return null;
  // The line's paper tone: its pixels' 75th percentile (fieldPaperTone, shared by the field cues).
  const inkBelow = fieldPaperTone(straightened) - INK_DEPTH;
  // A pixel is background when no ink lies within 2 px of it (ink grown by one pixel, then
  // nothing of that in its 3×3): the ink mask grown by 2 px, made for the rows above the line
  // first (NearInk), the rest only when those leave the line to judge.
  const nearInk = new NearInk(canvas, inkBelow);
  nearInk.makeRows(inner.y);
  const { near } = nearInk;
  const gap = ringGap(inner.h);
  // Capacities: every pixel of the canvas's inner rows and columns (those near ink are left out).
  const samples = new RegionSamples(ringRegionSizes(1, H - 1, 1, W - 1, inner, gap));
  const spans = new Int32Array(RING_SPANS_MAX * 3);
  // Per ring part, its samples under `plainRing`; a part whose median is under it has more than
  // the median's rank of them.
  const plain = new Int32Array(INSIDE);
  const plainPart = (part: number) => {
    const n = samples.count(part);
    return n >= MIN_PIXELS && plain[part]! > quantileRank(n, 0.5);
  };
  for (let y = 1; y < H - 1; y++) {
    // The part above is whole at the line's first row, those before and after it past its last.
    if (y === inner.y) {
      if (plainPart(0)) return null;
      nearInk.makeRows(H);
    }
    if (y === inner.y + inner.h && (plainPart(2) || plainPart(3))) return null;
    for (let s = 0, n = ringSpans(y, 1, W - 1, inner, gap, spans); s < n; s++) {
      const region = spans[3 * s]!;
      for (let i = y * W + spans[3 * s + 1]!, end = y * W + spans[3 * s + 2]!; i < end; i++) {
        if (near[i]) continue;
        const v = Math.abs(data[i - 1]! + data[i + 1]! + data[i - W]! + data[i + W]! - 4 * data[i]!);
        samples.add(region, v);
        if (v < plainRing && region !== INSIDE) plain[region]!++;
      }
    }
  }
  if (plainPart(0) || plainPart(1) || plainPart(2) || plainPart(3)) return null;
  const regions = samples.split();
  const inside = regions[INSIDE]!;
  const ringParts = regions
    .slice(0, INSIDE)
    .filter((p) => p.length >= MIN_PIXELS)
    .map((p) => quantile(p, 0.5));
  if (inside.length < MIN_PIXELS || ringParts.length === 0) return null;
  return { inside: quantile(inside, 0.5), ring: Math.min(...ringParts) };
}

/** Strength of the sign (0..1), or null when the line's background is not filled. */
export function smoothFillStrength(t: FillTexture): number | null {
  if (t.ring < FILL_MIN_RING_TEXTURE) return null;
  const ratio = t.inside / t.ring;
  if (ratio >= FILL_MAX_TEXTURE_RATIO) return null;
  return Math.min(1, (FILL_MAX_TEXTURE_RATIO - ratio) / (FILL_MAX_TEXTURE_RATIO - FILL_UNMISTAKABLE_RATIO));
}

/** The read lines worth judging: a quad, a side, and at least two letters or digits of text. */
export function parseLineBoxes(value: unknown): { side: 'front' | 'back'; quad: [number, number][] }[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (b): b is { side: 'front' | 'back'; quad: [number, number][]; text: string } =>
      typeof b === 'object' &&
      b !== null &&
      (b.side === 'front' || b.side === 'back') &&
      typeof b.text === 'string' &&
      b.text.replace(/[^\p{L}\p{N}]/gu, '').length >= 2 &&
      isQuad(b.quad),
  );
}
