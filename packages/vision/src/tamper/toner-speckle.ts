import type { NormalizedImage } from '../image/normalize.ts';
import { quantile } from '../image/stats.ts';
import { optInCueOn } from './opt-in-cues.ts';
import { type Region, strengthBetween } from './types.ts';

/**
 * Toner speckle: a copier or a laser printer scatters stray toner over the paper, isolated dark
 * dots a fraction of a millimetre wide on the blank parts of the page. A genuine document's
 * blank parts are printed by offset or inkjet with no stray dots (its fine print is lines and
 * patterns, not isolated points), and a phone's sensor noise is spread over every pixel rather
 * than concentrated in deep single dots.
 *
 * Measure: in the document window, on the luma, every pixel that is the darkest of its 3 × 3
 * neighbourhood and lies `depth` grey levels or more under the mean of the 16-pixel ring two
 * pixels away, where that ring is bright paper (at least 85 % of the window's paper white) and
 * flat (its own spread small against the dot's depth). The count is per 10,000 such flat bright
 * ring positions (the candidates), so a document with little blank paper is not penalised.
 */

/** Paper: the ring's mean at or above this share of the window's white (its 95th percentile). */
const PAPER_SHARE = 0.85;
/** Too few flat paper positions to judge (a page full of print): no measure. */
const MIN_CANDIDATES = 5000;
/**
 * The dot's depth under its ring, in grey levels of the working copy. A stray toner dot (one
 * source pixel at 30–70 % of the paper's tone) keeps 16–40 levels after the copy's and the
 * phone's blur; sensor noise (σ 1.5–4, averaged by the reduction to the working size) and
 * JPEG's ringing reach it on a flat ring only rarely: generated bona fide phone captures of
 * tuning-side sources measured at most 0.79 dots per 10,000 paper positions at this depth,
 * against up to 30 at depth 6 (noise counted as dots).
 */
export const SPECKLE_DEPTH = 16;
/**
 * Sign from this density (dots per 10,000 flat paper positions). Measured on tuning-side
 * sources only (scripts/eval/copy-cues.ts on an export-training.ts export of 40 sources: the
 * fixtures' 4 tuning pages, 24 synthetic tuning layouts, 12 drawn training cards; figures in
 * docs/benchmarks.md, issue 14, colour copies): bona fide phone captures 0–0.79 (one drawn
 * colour card; every other ≤ 0.18), clean digital files (render, JPEG, flatbed scan) 0–0.20;
 * colour copies median 3.7 (10th percentile 0.70), grey copies 3.3 (1.26), prints photographed
 * 2.7 (0.77). 1.0 sits above every genuine value (1.27× the highest), the copies under it are
 * left to the colour spread. The real fixtures' tuning half has three real grey photocopies at
 * 0–0.34 (the colour spread catches them) and genuine pages at 0–0.51: real copiers may scatter
 * far less toner than the corpus's, so this cue is not expected to carry real copies alone.
 */
export const SPECKLE_MIN_DENSITY = 1;
/**
 * High severity (strength 0.5, severityFor: a tamper fail) from 2 dots per 10,000, 2.5 times the
 * highest genuine value measured; strength 1 at 3. Most generated copies measure above 2
 * (medians 2.7–3.7); between 1 and 2 the sign asks for a review.
 */
const SPECKLE_UNMISTAKABLE = 3;
/**
 * Rows are measured in bands of this height, every k-th band when the window is large, so that
 * at most ~`MAX_PIXELS` are visited: the density is a ratio over the page and keeps its value
 * on a regular sample of it, and the tamper step has a time budget.
 */
const BAND = 24;
const MAX_PIXELS = 600_000;

/**
 * Whether the tamper step raises the cue: only with IDV_TAMPER_SPECKLE=1 (read at each call, so
 * an evaluation can measure the step with and without it). Off by default: on real uploads it
 * does not measure what it does on the generated corpus. The real fixtures' tuning half has its
 * three real grey copies at 0–0.34 and a genuine page at 0.51 (real copiers scatter far less
 * toner than the corpus's), and the holdout half, measured once, read two genuine documents at
 * 1.08 and 1.75 (review signs; 1.75 is near the fail bar) while its one real copy was caught by
 * the colour spread anyway (docs/benchmarks.md, issue 14, colour copies). It lifts the
 * generated copies (the corpus's copier scatters 0.05–0.4 % of its pixels as toner dots).
 */
export function speckleCueOn(): boolean {
  return optInCueOn('SPECKLE');
}

/** The sign's strength from the measured density (null: no sign). */
export function speckleStrength(density: number): number | null {
  if (density < SPECKLE_MIN_DENSITY) return null;
  return strengthBetween(density, SPECKLE_MIN_DENSITY, SPECKLE_UNMISTAKABLE);
}

export interface Speckle {
  /** Dots per 10,000 flat paper positions. */
  density: number;
  candidates: number;
}

export function measureSpeckle(
  image: NormalizedImage,
  region: Region,
  depth = SPECKLE_DEPTH,
): Speckle | null {
  const { rgb, width } = image;
  const x0 = Math.max(2, Math.floor(region.x));
  const y0 = Math.max(2, Math.floor(region.y));
  const x1 = Math.min(image.width - 2, Math.floor(region.x + region.w));
  const y1 = Math.min(image.height - 2, Math.floor(region.y + region.h));
  const w = x1 - x0 + 4;
  const h = y1 - y0 + 4;
  if (w < 20 || h < 20) return null;
  const every = Math.max(1, Math.ceil((w * h) / MAX_PIXELS));
  const measured = (y: number) => y >= 2 && y < h - 2 && Math.floor((y - 2) / BAND) % every === 0;
  // Luma of the window plus a 2-pixel margin: the rows of the bands measured and their margins.
  // Every 7th of those pixels goes into the sample that sets the paper's white.
  const lum = new Float32Array(w * h);
  const sample: number[] = [];
  for (let y = 0; y < h; y++) {
    if (!measured(y) && !measured(y - 1) && !measured(y - 2) && !measured(y + 1) && !measured(y + 2))
      continue;
    for (let x = 0; x < w; x++) {
      const i = ((y0 - 2 + y) * width + (x0 - 2 + x)) * 3;
      const v = 0.299 * rgb[i]! + 0.587 * rgb[i + 1]! + 0.114 * rgb[i + 2]!;
      lum[y * w + x] = v;
      if ((y * w + x) % 7 === 0) sample.push(v);
    }
  }
  const white = quantile(Float64Array.from(sample), 0.95);
  const paper = PAPER_SHARE * white;
  // Ring offsets: the border of the 5 × 5 square.
  const ring: number[] = [];
  for (let dy = -2; dy <= 2; dy++)
    for (let dx = -2; dx <= 2; dx++) if (Math.max(Math.abs(dx), Math.abs(dy)) === 2) ring.push(dy * w + dx);
  // The ring's test (bright, flat paper) for one position.
  const onPaper = (p: number): number => {
    let sum = 0;
    let lo = 255;
    let hi = 0;
    for (const o of ring) {
      const v = lum[p + o]!;
      sum += v;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    const mean = sum / 16;
    // A flat ring: what varies around the dot is less than half the depth looked for (a dot
    // on a line or at a glyph's edge is not on blank paper).
    return mean >= paper && hi - lo <= depth / 2 ? mean : -1;
  };
  // Candidates counted on every 4th row and column (× 16): the share of blank paper is smooth,
  // the full count cost most of the measure's time.
  let candidates = 0;
  let dots = 0;
  for (let y = 2; y < h - 2; y++) {
    if (!measured(y)) continue;
    for (let x = 2; x < w - 2; x++) {
      const p = y * w + x;
      if ((x & 3) === 0 && (y & 3) === 0 && onPaper(p) >= 0) candidates += 16;
      const c = lum[p]!;
      // Cheap first test, implied by the full one (a flat ring `depth` above the centre has every
      // point at least depth / 2 above it): the four ring points straight across, then the
      // centre as its 3 × 3 neighbourhood's minimum.
      const bar = c + depth / 2;
      if (lum[p - 2]! < bar || lum[p + 2]! < bar || lum[p - 2 * w]! < bar || lum[p + 2 * w]! < bar) continue;
      if (
        c > lum[p - 1]! ||
        c > lum[p + 1]! ||
        c > lum[p - w]! ||
        c > lum[p + w]! ||
        c > lum[p - w - 1]! ||
        c > lum[p - w + 1]! ||
        c > lum[p + w - 1]! ||
        c > lum[p + w + 1]!
      )
        continue;
      const mean = onPaper(p);
      if (mean >= 0 && mean - c >= depth) dots++;
    }
  }
  if (candidates < MIN_CANDIDATES) return null;
  return { density: (dots / candidates) * 10_000, candidates };
}
