import type { GreyImage } from '../image/grey.ts';
import type { NormalizedImage } from '../image/normalize.ts';
import { quantile } from '../image/stats.ts';
import { REVIEW_MAX_STRENGTH } from './descriptions.ts';
import { fieldPaperTone, lineFrame, type RingCanvas } from './field-background.ts';
import { grow2 } from './near-ink.ts';
import { FILL_MAX_TEXTURE_RATIO, FILL_MIN_RING_TEXTURE } from './smooth-fill.ts';
import { warpQuadGrey } from './straighten.ts';

/**
 * `field_overwritten`: a band of in-painting around a line. A forger who selects a
 * field with a margin and fills the selection from its border (an in-painting tool, a clone
 * fill) leaves a smooth band all around the new text, and the document's printed pattern
 * carries on beyond it. The in-painting cue (smooth-fill.ts) compares the background between
 * the letters with a ring a fifth of a line height away; a fill grown past that ring smooths
 * the ring too, and that cue then sees a plain line on plain paper and says nothing.
 *
 * So each side of the line (above, below, before, after) is measured twice: a near band (0.1 to
 * 0.45 line heights out) and a far band (0.9 to 1.5). Texture as in smooth-fill.ts: median
 * |Laplacian| of the pixels 3 px or more from ink. A side is judged when its far band carries a
 * printed pattern (FILL_MIN_RING_TEXTURE) and is mostly background (MAX_FAR_INK_SHARE); the line
 * is in a filled band when at least three sides are judged and on every judged side the near
 * band holds under half the far band's texture.
 *
 * Measured on the fixtures' tuning half (115 read lines of the bona fide fronts, 36 on a printed
 * background): no untouched line flagged (on a first version with whole far bands, the lowest
 * worst-side ratio of an untouched line was 0.75), while lines in-painted over their box grown
 * by 0.3 or 0.6 heights measured 0.11–0.44 where judged (docs/decisions.md, issue 14, "A band
 * of in-painting around a line").
 *
 * Not seen: a line printed in a plain panel that hugs it on a patterned page, which looks the
 * same; hence a review at most (FILL_BAND_MAX_STRENGTH), never a fail on its own.
 *
 * On by default since 2026-11-29 (`IDV_TAMPER_FILL_BAND=0` turns it off, opt-in-cues.ts). First
 * judged by a rule written before: on the fixtures' holdout half it flagged none of 237 untouched
 * lines on a printed background and caught 32 and 65 of 237 lines in-painted over their box
 * grown by 0.3 and 0.6 heights (the ring cue alone: 43 and 0), but the generated draws then
 * printed patterns too sparse for its far bands and it caught no more forged fields there, so it
 * stayed opt-in. The draws now can print dense security print (synth/security-print.ts); judged
 * again on a fresh draw so printed (`s31-hold`), it caught 26 → 29 of 75 fields in-painted with
 * a margin (uploaded as files: 29 → 36), with no genuine capture newly flagged there, under six
 * hazards (450) or on the real holdout pages (docs/decisions.md, issue 14).
 */

/** The near band, in line heights out from the line's box: inside a fill grown by 0.3 or more. */
const NEAR: readonly [number, number] = [0.1, 0.45];
/** The far band: past most fills, and still within the line's neighbourhood on the page. */
const FAR: readonly [number, number] = [0.9, 1.5];
/** Background pixels needed in a band to measure its texture (as smooth-fill.ts's MIN_PIXELS). */
const MIN_PIXELS = 30;
/** Sides needing a patterned far band: three, so that one plain neighbour never decides. */
export const FILL_BAND_MIN_SIDES = 3;
/** Ink: this many grey levels under the line's paper tone (its 75th percentile), as smooth-fill.ts. */
const INK_DEPTH = 40;
/** A review at most: see "Not seen" above. */
export const FILL_BAND_MAX_STRENGTH = REVIEW_MAX_STRENGTH;

export interface FillBand {
  /** Per side (above, below, before, after): near and far bands' texture, null when not measured. */
  sides: [number | null, number | null][];
}

/**
 * The near and far bands' texture around a read line (its quad, reading order corners), with
 * its ring canvas (field-background.ts: the line straightened with 0.8 heights around it, which
 * holds the near band). The far bands are straightened on their own, thin strips only; and the
 * near bands are measured only when three far bands are patterned (most lines lie on plain
 * paper, and are left after two far bands). A side not measured is null.
 */
export function measureFillBand(
  image: NormalizedImage,
  quad: [number, number][],
  ring: RingCanvas,
): FillBand | null {
  const { canvas, inner } = ring;
  const h = inner.h;
  if (inner.w < 8 || h < 8) return null;
  const inkBelow = fieldPaperTone(ring) - INK_DEPTH;
  const sides: [number | null, number | null][] = [
    [null, null],
    [null, null],
    [null, null],
    [null, null],
  ];
  // The far bands, the short ones beside the line first; left as soon as three patterned sides
  // can no longer be had (a line on plain paper costs two small strips).
  const frame = lineFrame(quad);
  let plain = 0;
  for (const side of [2, 3, 0, 1]) {
    const far = texture(farStrip(image, frame, side, inkBelow));
    sides[side]![1] = far;
    if (far === null || far < FILL_MIN_RING_TEXTURE) plain++;
    if (plain > 4 - FILL_BAND_MIN_SIDES) return { sides };
  }
  // The near band on the ring canvas, whose inner box is the line's.
  const [n0, n1] = [Math.round(NEAR[0] * h), Math.round(NEAR[1] * h)];
  const { x, y, w } = inner;
  const nearRects: [number, number, number, number][] = [
    [x, y - n1, x + w, y - n0],
    [x, y + h + n0, x + w, y + h + n1],
    [x - n1, y, x - n0, y + h],
    [x + w + n0, y, x + w + n1, y + h],
  ];
  nearRects.forEach((r, side) => {
    sides[side]![0] = texture(backgroundTexture(canvas, ...r, inkBelow));
  });
  return { sides };
}

/** Median of a band's samples, or null when too few to measure. */
const texture = (samples: Float32Array) => (samples.length >= MIN_PIXELS ? quantile(samples, 0.5) : null);

/**
 * One side's far band, straightened along the line's quad as the ring canvas is (its corners
 * extended along the quad's top and left edges), with a border of BORDER px for the Laplacian
 * and the ink's growth; its background texture samples. Along a long line, at most
 * FAR_SEGMENTS pieces of two heights each are read: enough pixels for a median, and a far band
 * is the costliest part of the cue.
 */
function farStrip(
  image: NormalizedImage,
  { quad: q, w, h, at: from }: ReturnType<typeof lineFrame>,
  side: number,
  inkBelow: number,
): Float32Array {
  const at = (da: number, dc: number) => from(q[0], da, dc);
  const [f0, f1] = [Math.round(FAR[0] * h), Math.round(FAR[1] * h)];
  // Pieces along the line (u: along, v: across, in the line's own pixels), each [u0, u1, v0, v1].
  const pieces: [number, number, number, number][] = [];
  if (side < 2) {
    const [v0, v1] = side === 0 ? [-f1, -f0] : [h + f0, h + f1];
    const piece = Math.min(w, 2 * h);
    const count = Math.min(FAR_SEGMENTS, Math.max(1, Math.floor(w / piece)));
    for (let k = 0; k < count; k++) {
      const u0 = count === 1 ? 0 : Math.round((k * (w - piece)) / (count - 1));
      pieces.push([u0, u0 + piece, v0, v1]);
    }
  } else {
    pieces.push(side === 2 ? [-f1, -f0, 0, h] : [w + f0, w + f1, 0, h]);
  }
  const out: number[] = [];
  let area = 0;
  for (const [u0, u1, v0, v1] of pieces) {
    const [pw, ph] = [u1 - u0 + 2 * BORDER, v1 - v0 + 2 * BORDER];
    const [x0, y0, x1, y1] = [u0 - BORDER, v0 - BORDER, u1 + BORDER, v1 + BORDER];
    const strip = warpQuadGrey(image, [at(x0, y0), at(x1, y0), at(x1, y1), at(x0, y1)], pw, ph);
    for (const v of backgroundTexture(strip, BORDER, BORDER, pw - BORDER, ph - BORDER, inkBelow)) out.push(v);
    area += (u1 - u0) * (v1 - v0);
  }
  // A band mostly near other text is no background: the edges of the letters left in it are
  // texture of another kind.
  return out.length < (1 - MAX_FAR_INK_SHARE) * area ? new Float32Array(0) : Float32Array.from(out);
}

/**
 * Largest share of a far band near ink (within 2 px) for the band to be judged. The value or
 * label beside a line, or the next line above or below, fills a far band with letter edges
 * that read as a printed pattern: on the reading benchmark's tuning captures a label's far
 * bands were 75–81 % near ink and raised the sign on a genuine line (docs/decisions.md, issue
 * 14). Half: a band judged is mostly background.
 */
const MAX_FAR_INK_SHARE = 0.5;

/** Border around a far band piece: one pixel for the Laplacian, two for the ink's growth. */
const BORDER = 3;
/** Pieces of a long line's far band read above and below it. */
const FAR_SEGMENTS = 3;

/**
 * |Laplacian| (4 neighbours) of the canvas pixels in [x0, x1) × [y0, y1) that lie 3 px or more
 * from ink (no pixel under `inkBelow` in their 5 × 5 square), the rectangle clipped to the
 * canvas less one pixel.
 */
function backgroundTexture(
  g: GreyImage,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  inkBelow: number,
): Float32Array {
  const { data: d, width: W, height: H } = g;
  const [ax, ay, bx, by] = [Math.max(1, x0), Math.max(1, y0), Math.min(W - 1, x1), Math.min(H - 1, y1)];
  if (bx <= ax || by <= ay) return new Float32Array(0);
  // The ink of the rectangle and two pixels around it, grown by two.
  const [mx, my] = [Math.max(0, ax - 2), Math.max(0, ay - 2)];
  const [mw, mh] = [Math.min(W, bx + 2) - mx, Math.min(H, by + 2) - my];
  const ink = new Uint8Array(mw * mh);
  for (let yy = 0; yy < mh; yy++)
    for (let xx = 0; xx < mw; xx++) ink[yy * mw + xx] = d[(my + yy) * W + mx + xx]! < inkBelow ? 1 : 0;
  const near = grow2(ink, mw, mh);
  const out = new Float32Array((bx - ax) * (by - ay));
  let n = 0;
  for (let y = ay; y < by; y++) {
    for (let x = ax; x < bx; x++) {
      if (near[(y - my) * mw + x - mx]) continue;
      const i = y * W + x;
      out[n++] = Math.abs(d[i - 1]! + d[i + 1]! + d[i - W]! + d[i + W]! - 4 * d[i]!);
    }
  }
  return out.subarray(0, n);
}

/** The sides whose far band carries a printed pattern: those the sign may judge. */
export function judgedSides(m: FillBand): [number | null, number][] {
  return m.sides.filter((s): s is [number | null, number] => s[1] !== null && s[1] >= FILL_MIN_RING_TEXTURE);
}

/**
 * Strength of the sign (0..FILL_BAND_MAX_STRENGTH), or null when the line is not in a filled
 * band: from 0.01 at a near/far ratio of FILL_MAX_TEXTURE_RATIO on the worst judged side, up to
 * the cap at a ratio of 0.2 (the judged fills of the tuning half reach 0.11).
 */
export function fillBandStrength(m: FillBand): number | null {
  const ratios = judgedSides(m)
    .filter((s): s is [number, number] => s[0] !== null)
    .map(([near, far]) => near / far);
  if (ratios.length < FILL_BAND_MIN_SIDES) return null;
  const worst = Math.max(...ratios);
  if (worst >= FILL_MAX_TEXTURE_RATIO) return null;
  const share = Math.min(1, (FILL_MAX_TEXTURE_RATIO - worst) / (FILL_MAX_TEXTURE_RATIO - 0.2));
  return Math.round((0.01 + share * (FILL_BAND_MAX_STRENGTH - 0.01)) * 100) / 100;
}
