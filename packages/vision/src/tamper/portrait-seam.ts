import type { FaceBox } from '../faces/detect.ts';
import type { GreyImage } from '../image/grey.ts';
import { REVIEW_MAX_STRENGTH } from './descriptions.ts';

/**
 * `portrait_edge`, third cue: the seam of a photo laid over the page. A portrait swapped in by
 * pasting, blending or gluing a printed photo is a rectangle of *another picture*: along each of
 * its four sides the tone steps from the donor picture to the page, on a straight line, wherever
 * the two pictures differ. A genuine printed portrait is part of the page's print: its edge fades
 * into the page, or is a frame on one or two sides where the photo's background meets darker
 * print; a seam all around the face is what a second picture leaves.
 *
 * For each side of the face (left, right, top, bottom) the straightest step line is searched
 * between 0.02 and 0.9 face sizes out from the face box, at small slopes (a phone photo is
 * seldom square to the page): the share of positions along the face's extent where the tone
 * 2–3 px on one side of the line differs from the tone 2–3 px on the other by STEP levels and by
 * 1.5 times the change just beyond (an edge, not print texture or a gradient). The sign's
 * measure is the *weakest* side's share: a pasted rectangle steps on all four sides, a genuine
 * portrait's frame seldom does.
 *
 * Not seen: a donor photo cut exactly along a genuine photo's own hard frame, with its colours
 * matched; that needs a look at the picture's own statistics (noise, resampling), not built.
 */

/**
 * Tone difference (grey levels) between the two sides of a seam (means 2–3 px either side):
 * above the capture's noise (σ 1.5–4 after JPEG, ~2 levels on a 2-pixel mean) and the soft
 * fades of genuine printed portraits. A wider second scale (5–6 px, for feathered pastes) was
 * tried on the tuning half and dropped: it lifted the fixture pages' bona fide portraits
 * (0.41 → 0.68) more than the swaps.
 */
const STEP = 8;
/** The step must be this many times the tone change just beyond it (4–8 px out): an edge, not texture. */
const EDGE_OVER_TEXTURE = 1.5;
/** Slopes searched (px across per px along): perspective and a tilted page up to ≈ 3.5°. */
const SLOPES = [-0.06, -0.03, 0, 0.03, 0.06];
/** Smallest face (box width, px) measured: below it, 0.9 face sizes is too little room for a seam. */
export const SEAM_MIN_FACE_WIDTH = 60;

/**
 * Weakest side's coverage at which the sign is raised. Tuning half (docs/benchmarks.md, issue
 * 14; 3 fixture pages with a portrait and 10 synthetic documents of the tuning layouts): the
 * fixture pages' genuine portraits 0.34–0.56 (a printed frame reaches 1.0 on one to three
 * sides, never four); their swaps 0.53–0.93, the synthetic documents' swaps 0.67–0.99. 0.6 is
 * just above the fixture pages' bona fide values. The synthetic documents' genuine photos are
 * composited with a hard frame on a tinted page and measure 0.36–1.00 (6 of 10 at 0.6 or more):
 * hence the severity cap below.
 */
export const SEAM_MIN_COVERAGE = 0.6;
/**
 * The seam alone never fails the check: the tuning half's synthetic documents print genuine
 * photos with a hard frame on a tinted page, and one of them (a TD2 card) steps on all four
 * sides as fully as a pasted photo (docs/benchmarks.md, issue 14). Geometry cannot tell the two
 * apart; the picture's own statistics could (not built). Just under high severity: review.
 */
export const SEAM_MAX_STRENGTH_ALONE = REVIEW_MAX_STRENGTH;

export interface SeamMeasure {
  /** Coverage of the best seam line per side: left, right, top, bottom. */
  sides: [number, number, number, number];
  /** The weakest side's coverage. */
  weakest: number;
}

type Side = 'left' | 'right' | 'top' | 'bottom';

/** Best straight-step line of one side of the face; its coverage (0..1). */
function sideCoverage(g: GreyImage, face: FaceBox, side: Side): number {
  const { x, y, w, h } = face;
  const vertical = side === 'left' || side === 'right';
  const W = g.width;
  const H = g.height;
  const d = g.data;
  // `u` runs across the line, `t` along it.
  const at = vertical
    ? (u: number, t: number) => {
        const xi = u < 0 ? 0 : u >= W ? W - 1 : Math.round(u);
        return d[t * W + xi]!;
      }
    : (u: number, t: number) => {
        const yi = u < 0 ? 0 : u >= H ? H - 1 : Math.round(u);
        return d[yi * W + t]!;
      };
  const [from, to] =
    side === 'left'
      ? [x - 0.9 * w, x - 0.02 * w]
      : side === 'right'
        ? [x + 1.02 * w, x + 1.9 * w]
        : side === 'top'
          ? [y - 0.9 * h, y - 0.02 * h]
          : [y + 1.02 * h, y + 1.9 * h];
  const alongSize = vertical ? H : W;
  const t0 = Math.max(0, Math.round(vertical ? y : x));
  const t1 = Math.min(alongSize - 1, Math.round(vertical ? y + h : x + w));
  // About 80 samples along each line: coverage is a share, known to ±0.06 from 80 samples, and a
  // large face would otherwise cost a million samples per side.
  const tStep = Math.max(1, Math.round((t1 - t0) / 80));
  const tc = (t0 + t1) / 2;
  const acrossSize = vertical ? W : H;
  let best = 0;
  for (let p = Math.max(8, Math.round(from)); p <= Math.min(acrossSize - 9, to); p++) {
    for (const slope of SLOPES) {
      let hits = 0;
      let n = 0;
      for (let t = t0; t <= t1; t += tStep) {
        const u = p + slope * (t - tc);
        const a = (at(u + 2, t) + at(u + 3, t)) / 2;
        const b = (at(u - 2, t) + at(u - 3, t)) / 2;
        const step = Math.abs(a - b);
        n++;
        if (step < STEP) continue;
        const beyond = Math.max(Math.abs(at(u + 8, t) - at(u + 4, t)), Math.abs(at(u - 4, t) - at(u - 8, t)));
        if (step >= EDGE_OVER_TEXTURE * beyond) hits++;
      }
      if (n && hits / n > best) best = hits / n;
    }
  }
  return best;
}

/** The seam measure around a face, or null when the face is too small to judge. */
export function measurePortraitSeam(g: GreyImage, face: FaceBox): SeamMeasure | null {
  if (face.w < SEAM_MIN_FACE_WIDTH) return null;
  const sides = (['left', 'right', 'top', 'bottom'] as const).map((s) => sideCoverage(g, face, s)) as [
    number,
    number,
    number,
    number,
  ];
  return { sides, weakest: Math.min(...sides) };
}

/**
 * Strength of the sign (0..1): none below SEAM_MIN_COVERAGE, then rising with the weakest side's
 * coverage up to SEAM_MAX_STRENGTH_ALONE at 1 (a seam found on every side at every position).
 */
export function seamStrength(m: SeamMeasure): number {
  if (m.weakest < SEAM_MIN_COVERAGE) return 0;
  const share = (m.weakest - SEAM_MIN_COVERAGE) / (1 - SEAM_MIN_COVERAGE);
  return 0.01 + share * (SEAM_MAX_STRENGTH_ALONE - 0.01);
}
