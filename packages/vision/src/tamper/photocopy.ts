import type { NormalizedImage } from '../image/normalize.ts';
import { quantile, quantileRank } from '../image/stats.ts';
import { REVIEW_MAX_STRENGTH } from './descriptions.ts';

/**
 * `photocopy`: an identity document is printed in colour (tinted security background, colour
 * portrait, coloured emblems). A photocopy or a black-and-white print of it has almost no
 * colour left, only a uniform cast from the lighting or the camera's white balance.
 *
 * Measure: chromaticity (r, g) / (r + g + b) of every mid-tone pixel in the central part of the
 * photo (where the document is; the table or hand around it may be colourful), its distance to
 * the median chromaticity weighted by the pixel's brightness (BRIGHT_SUM), and the 90th
 * percentile of that distance. A uniform cast does not move that spread (it moves the median),
 * brightness and shadows do not either (chromaticity divides them out); only real colour
 * differences on the document do.
 */

/**
 * The brightness (r + g + b) at which a chromaticity distance counts as it is: paper under room
 * light, about 200 per channel; a darker pixel's distance is scaled down by its brightness over
 * this. Why: a phone's JPEG keeps one colour per 2 × 2 pixels (4:2:0), so a dark dot of a grey
 * copy's halftone inherits the colour cast of the paper beside it as a fixed offset of a few
 * grey levels, and divided by the dot's small brightness (chromaticity alone) that offset read as
 * colour. On the tuning draw (docs/decisions.md, issue 14, the colour spread weighted by
 * brightness) grey copies under a warm cast measured up to 0.024 unweighted and 0.014 weighted;
 * at the same number of genuine captures flagged, 2 more grey copies, 5 more colour copies and
 * 8 more photographed prints of 100 fell under the bar.
 */
const BRIGHT_SUM = 600;

/**
 * Measured spreads (docs/decisions.md, issue 14, the colour spread weighted by brightness; the
 * tuning side: the draw `s18-tune`, the generated and the real tuning half): grey copies
 * photographed by a phone 0.0013–0.014 (most under 0.006; the real ones 0.0039, 0.0052 and
 * 0.0080), colour documents mostly above 0.02, the real genuine pages of the tuning half from
 * 0.0169. The synthetic layouts printed in pale tints reach down to 0.002, as grey as a copy:
 * they are why a low spread alone is only a review above PHOTOCOPY_FAIL_SPREAD and why the
 * page's colour (page-colour.ts) is asked before a fail. 0.012 flags as many genuine captures
 * of the tuning side as the former bar (0.015 unweighted) did: 25 of 100.
 */
export const PHOTOCOPY_MAX_SPREAD = 0.012;
/**
 * A spread at or below this is unmistakably grey (strength 1): as few genuine captures of the
 * tuning side lie under it (2 of 100, pale prints) as lay under the former 0.005 unweighted.
 */
const UNMISTAKABLE_SPREAD = 0.004;
/**
 * A fail (high severity) only at or below this spread; between it and the flag bar the sign is a
 * review. Genuine documents printed in pale tints read as grey as many copies: on the generated
 * tuning corpus the synthetic layouts printed in pale tints measured 0.002–0.0055 (each with a
 * saturated stripe or title that page-colour.ts finds), grey copies 0.0013–0.014 (the bulk
 * under 0.005). 0.005 keeps as many genuine captures of the tuning side under it (8 of 100, all
 * pale prints) as the former bar (0.0072 unweighted); of the real grey copies of the tuning
 * half, 0.0039 fails, 0.0052 and 0.0080 are reviews.
 */
export const PHOTOCOPY_FAIL_SPREAD = 0.005;

import type { Region } from './types.ts';

export type { Region };

/**
 * Where to look: around the portrait when one was found (the document surrounds it; the
 * portrait can be on the left or the right of the page, so the window extends both ways),
 * else the central 60 % of the photo — cut down to the document's extent when the reading step
 * knows it. This keeps colourful surroundings (a table, a pen, a hand) out of the measure.
 */
export function documentWindow(
  image: NormalizedImage,
  face?: { x: number; y: number; w: number; h: number } | null,
  document?: Region,
): Region {
  const around = aroundPortrait(image, face);
  // When the document's extent is known, keep the measure on the document: a coloured pen or
  // cap lying beside a grey copy is not the document.
  if (document && document.w * document.h >= 0.05 * image.width * image.height) {
    const inside = intersect(around, document);
    return inside && inside.w * inside.h >= 0.25 * around.w * around.h ? inside : document;
  }
  return around;
}

function intersect(a: Region, b: Region): Region | null {
  const x0 = Math.max(a.x, b.x);
  const y0 = Math.max(a.y, b.y);
  const x1 = Math.min(a.x + a.w, b.x + b.w);
  const y1 = Math.min(a.y + a.h, b.y + b.h);
  return x1 > x0 && y1 > y0 ? { x: x0, y: y0, w: x1 - x0, h: y1 - y0 } : null;
}

function aroundPortrait(
  image: NormalizedImage,
  face?: { x: number; y: number; w: number; h: number } | null,
): Region {
  if (!face)
    return { x: 0.2 * image.width, y: 0.2 * image.height, w: 0.6 * image.width, h: 0.6 * image.height };
  const x0 = Math.max(0, face.x - 3 * face.w);
  const y0 = Math.max(0, face.y - 1 * face.h);
  const x1 = Math.min(image.width, face.x + 4 * face.w);
  const y1 = Math.min(image.height, face.y + 2.2 * face.h);
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}

/**
 * Chromaticity spread in `region`, measured block by block (4×4 blocks, each against its own
 * median) so that a lighting cast that changes across the picture — a pink lamp on one side —
 * is not mistaken for document colour. Each distance is weighted by its pixel's brightness
 * (BRIGHT_SUM) unless `weighted` is false (the strict sides, STRICT_SCALE). Returns NaN when the
 * region has too few mid-tones.
 *
 * With `bar` given, a spread above it is returned as Infinity, unranked: the photocopy sign only
 * asks whether the spread is above its flag bar (photocopyStrength), and a colour document's is,
 * by far. Enough distances above the bar to fill the ranks from the spread's up tell it, counted
 * as the distances are made (the root of each is above the bar exactly when the ranked one's
 * is, for those ranks: the root never reverses an order).
 */
export function colourSpread(
  image: NormalizedImage,
  region: Region = documentWindow(image),
  weighted = true,
  bar = Number.POSITIVE_INFINITY,
): number {
  const { rgb, width } = image;
  const step = Math.max(1, Math.floor(Math.sqrt((region.w * region.h) / 200_000))); // ≤ ~200k samples
  const blocks = 4;
  // Sample buffers sized for the largest block (the last row and column can be a pixel wider),
  // and for all (squared) distances: typed arrays filled in place, no number[] grown sample by sample.
  const blockSamples = (Math.ceil(region.w / blocks / step) + 2) * (Math.ceil(region.h / blocks / step) + 2);
  const rs = new Float64Array(blockSamples);
  const gs = new Float64Array(blockSamples);
  const sums = new Float64Array(blockSamples);
  const distances = new Float64Array(blockSamples * blocks * blocks);
  let nd = 0;
  // Distances whose root is above `bar`, and the squares past which (and short of which) a
  // root surely is (is not): the margin of 10⁻⁹ is far wider than a product's rounding.
  let above = 0;
  const aboveSquare = (bar * (1 + 1e-9)) ** 2;
  const belowSquare = (bar * (1 - 1e-9)) ** 2;
  for (let by = 0; by < blocks; by++) {
    for (let bx = 0; bx < blocks; bx++) {
      const xa = Math.floor(region.x + (region.w * bx) / blocks);
      const xb = Math.floor(region.x + (region.w * (bx + 1)) / blocks);
      const ya = Math.floor(region.y + (region.h * by) / blocks);
      const yb = Math.floor(region.y + (region.h * (by + 1)) / blocks);
      let n = 0;
      for (let y = ya; y < yb; y += step) {
        for (let x = xa; x < xb; x += step) {
          const i = (y * width + x) * 3;
          const r = rgb[i]!;
          const g = rgb[i + 1]!;
          const b = rgb[i + 2]!;
          const sum = r + g + b;
          // Dark pixels have noisy chromaticity; clipped ones have none.
          if (sum < 3 * 40 || r > 250 || g > 250 || b > 250) continue;
          rs[n] = r / sum;
          gs[n] = g / sum;
          sums[n] = sum;
          n++;
        }
      }
      if (n < 30) continue;
      const mr = quantile(rs.subarray(0, n), 0.5);
      const mg = quantile(gs.subarray(0, n), 0.5);
      for (let i = 0; i < n; i++) {
        // Weighted by the pixel's brightness (BRIGHT_SUM), unless asked not to (STRICT_SCALE).
        const levels = weighted ? sums[i]! / BRIGHT_SUM : 1;
        const dr = (rs[i]! - mr) * levels;
        const dg = (gs[i]! - mg) * levels;
        const d = dr * dr + dg * dg;
        distances[nd++] = d;
        // Squares a hair past the bar's either way settle their root; the root only between.
        if (d > aboveSquare || (d >= belowSquare && Math.sqrt(d) > bar)) above++;
      }
    }
  }
  if (nd < 500) return Number.NaN;
  // Enough distances above the bar put the ranked one above it too: nothing to rank.
  if (above >= nd - quantileRank(nd, SPREAD_QUANTILE)) return Number.POSITIVE_INFINITY;
  // Squared distances ranked, one root taken: the root never reverses an order, so the root of
  // the rank's square is the rank's distance, without a root per sample.
  return Math.sqrt(quantile(distances.subarray(0, nd), SPREAD_QUANTILE));
}

/** The spread is this quantile of the distances. */
const SPREAD_QUANTILE = 0.9;

/** The bars one side's colour spread is judged by, and whether it is weighted by brightness. */
export interface SpreadScale {
  weighted: boolean;
  /** The sign is raised at or below this (strength 0 there). */
  flag: number;
  /** Strength 1 at or below this. */
  unmistakable: number;
  /** A fail only at or below this; above it the sign is a review at most. */
  fail: number;
}

/** A document's page (every side but the strict ones): the weighted spread and its bars above. */
export const PAGE_SCALE: SpreadScale = {
  weighted: true,
  flag: PHOTOCOPY_MAX_SPREAD,
  unmistakable: UNMISTAKABLE_SPREAD,
  fail: PHOTOCOPY_FAIL_SPREAD,
};

/**
 * Where genuine colour is thin (Niger's paper card: tinted paper, often a black and white photo;
 * a card's back: much of it is the MRZ's clear zone): the unweighted spread and the stricter bars
 * it had before the weighting (0.015 / 2 to flag, 0.005 and 0.0072 as on the page). On the paper
 * card the weighting (flag bar 0.006, fitted on the tuning side) flagged 3 fewer of 15 grey
 * copies on the fresh holdout draw `s19-hold`, and cells averaged first (fitted on 55 tuning
 * cards) 3 fewer of 30 on `s19-hold2`, while every other layout gained; card backs are not in
 * the attack corpus. Both keep what was measured on them before (docs/decisions.md, issue 14,
 * the colour spread weighted by brightness).
 */
export const STRICT_SCALE: SpreadScale = {
  weighted: false,
  flag: 0.0075,
  unmistakable: 0.005,
  fail: 0.0072,
};

/**
 * The sign's strength from the spread, null for no sign: it grows from 0 at the scale's flag bar to
 * 1 at its unmistakable one, and stays under high severity above its fail bar (a pale genuine
 * print and a grey copy overlap there, so a person looks rather than the check failing).
 */
export function photocopyStrength(spread: number, scale: SpreadScale = PAGE_SCALE): number | null {
  if (Number.isNaN(spread) || spread > scale.flag) return null;
  const strength =
    Math.round(Math.min(1, (scale.flag - spread) / (scale.flag - scale.unmistakable)) * 100) / 100;
  return spread > scale.fail ? Math.min(strength, REVIEW_MAX_STRENGTH) : strength;
}
