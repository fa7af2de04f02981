import type { FaceBox } from '../faces/detect.ts';
import type { GreyImage } from '../image/grey.ts';

/**
 * `portrait_edge`, second cue: a portrait replaced *inside* the genuine frame keeps the frame's
 * real edges, so the cut-edge test (portrait-edge.ts) cannot see it. What such a swap does leave
 * is the mark of the tool that fitted the new photo into the old frame: a photo enlarged by
 * forward mapping (each source pixel written to one rounded target position, as the SIDTD
 * forgeries were made) leaves target columns and rows never written, which still show the old
 * portrait; resampling and blending leave similar seams. They are thin (1–2 px) straight lines
 * that run along the image grid for a long way, across skin, hair and background alike. A
 * photographed face has no such lines: its edges bend, hair strands wander off a pixel column
 * within a few rows, and print texture (halftone, guilloche) is diagonal or short.
 *
 * Counted along both image axes (a photo enlarged in width leaves columns, in height rows), the
 * larger count kept. Eyebrows, eyes and lips run across the face, but they are bands with
 * differing sides, not thin lines on smooth ground: on photographed faces they make at most one.
 *
 * Guard: the same measure on the document beside the portrait must stay low. Lines that run
 * through the whole picture (a scanner's dirty bar, a screen's pixel rows, vertical security
 * print) are not the portrait's own and are left to other detectors.
 */

/** Smallest face (box width, px) on which 1–2 px lines are resolved apart from print and JPEG texture. */
export const STREAK_MIN_FACE_WIDTH = 80;
/** GreyImage levels a line pixel stands off its neighbours 2 px away (JPEG noise on skin: 1–3 levels). */
const LINE_CONTRAST = 8;
/**
 * A line stands on smooth ground: its two flanks differ by at most this share of the line's own
 * contrast. Hair strands and print texture sit among other strands, whose flanks disagree.
 */
const FLANK_TOLERANCE = 0.5;
/** A line must run straight for this share of the face's size along it (and at least MIN_RUN_PX). */
const MIN_RUN_FRACTION = 0.2;
/**
 * The floor for small faces: on the smallest judged (STREAK_MIN_FACE_WIDTH, 80 px) a fifth is
 * 16 px, which the straight edge of an eyebrow or a lip can span.
 */
const MIN_RUN_PX = 20;
/**
 * Pixels a line may miss and go on: where another line crosses it (a photo enlarged into the
 * frame by forward mapping leaves a grid of such lines) or where the two pictures match in tone.
 */
const MAX_GAP = 2;
/**
 * Distinct lines through the face that make the sign. Measured (docs/benchmarks.md): 155
 * photographed faces (fixture faces at 1×, 2× and 3×) carry at most 1, the bona fide fixture
 * portraits at most 2 (a Czech passport's; 0 or 1 on all others); the SIDTD portrait swap 4–8
 * (re-encoded at 1000–1600 px), flagged simulated swaps 4–26.
 */
export const MIN_STREAKS = 4;
/** Line count at which the sign is certain (strength 1); from 6 lines the sign is high. */
export const STREAKS_UNMISTAKABLE = 8;

export interface StreakMeasure {
  /** Long straight lines through the face, along the face axis that has more of them. */
  inside: number;
  /** The same count on a window of the same size on the document beside the portrait. */
  beside: number;
}

interface Window {
  /** Columns (positions across the lines) and rows (along the lines), in the oriented frame. */
  across0: number;
  across1: number;
  along0: number;
  along1: number;
}

/**
 * Counts the straight lines of a window: positions `across` whose pixel line `along` holds a run
 * of at least `minRun` consecutive pixels that all stand LINE_CONTRAST levels above (or all
 * below) their neighbours 2 px away on either side, those neighbours agreeing with each other.
 * Adjacent positions belong to one line (a 2 px line, or a line between two columns).
 */
function countLines(
  at: (across: number, along: number) => number,
  w: Window,
  minRun: number,
  acrossSize: number,
): number {
  const a0 = Math.max(2, Math.round(w.across0));
  const a1 = Math.min(acrossSize - 2, Math.round(w.across1));
  const b0 = Math.max(0, Math.round(w.along0));
  const b1 = Math.round(w.along1);
  let lines = 0;
  let previousHadLine = false;
  for (let a = a0; a < a1; a++) {
    let run = 0;
    let sign = 0;
    let gap = 0;
    let hasLine = false;
    for (let b = b0; b < b1 && !hasLine; b++) {
      const left = at(a - 2, b);
      const right = at(a + 2, b);
      const l = at(a, b) - (left + right) / 2;
      const flanksAgree = Math.abs(left - right) <= FLANK_TOLERANCE * Math.abs(l);
      const s = Math.abs(l) >= LINE_CONTRAST && flanksAgree ? Math.sign(l) : 0;
      if (s === 0) {
        // A crossing line or a pixel of matching tone interrupts a line without ending it.
        gap++;
        if (gap > MAX_GAP) {
          run = 0;
          sign = 0;
        }
      } else if (s === sign) {
        run++;
        gap = 0;
      } else {
        run = 1;
        sign = s;
        gap = 0;
      }
      hasLine = run >= minRun;
    }
    if (hasLine && !previousHadLine) lines++;
    previousHadLine = hasLine;
  }
  return lines;
}

/**
 * Measures the lines inside the face (its box shrunk by 10 % per side, always within the photo)
 * and beside the portrait. Null when the face is too small to judge.
 */
export function measurePortraitStreaks(grey: GreyImage, face: FaceBox): StreakMeasure | null {
  if (face.w < STREAK_MIN_FACE_WIDTH) return null;
  // Both image axes: a document photographed upright or turned by 90° has its pixel grid, and
  // the forger's, along them.
  const columns = measureAxis(grey, face, false);
  const rows = measureAxis(grey, face, true);
  return { inside: Math.max(columns.inside, rows.inside), beside: Math.max(columns.beside, rows.beside) };
}

/** The lines running down the image columns, or along the rows when `alongRows`. */
function measureAxis(grey: GreyImage, face: FaceBox, alongRows: boolean): StreakMeasure {
  const { data, width, height } = grey;
  const at = alongRows
    ? (across: number, along: number) =>
        data[Math.min(width - 1, along) + Math.min(height - 1, across) * width]!
    : (across: number, along: number) =>
        data[Math.min(width - 1, across) + Math.min(height - 1, along) * width]!;
  // `across` = image x (lines down the columns) or y (lines along the rows); `along` the other.
  const [acrossStart, acrossLen, alongStart, alongLen, acrossSize, alongSize] = alongRows
    ? [face.y, face.h, face.x, face.w, height, width]
    : [face.x, face.w, face.y, face.h, width, height];
  const minRun = Math.max(MIN_RUN_PX, MIN_RUN_FRACTION * alongLen * 0.8);
  const inner: Window = {
    across0: acrossStart + 0.1 * acrossLen,
    across1: acrossStart + 0.9 * acrossLen,
    along0: alongStart + 0.1 * alongLen,
    along1: Math.min(alongSize, alongStart + 0.9 * alongLen),
  };
  // Beside the portrait: the same window moved 1.6 face sizes across, to the side with room.
  const shift = 1.6 * acrossLen;
  const room = inner.across1 + shift <= acrossSize ? shift : -shift;
  const beside: Window = { ...inner, across0: inner.across0 + room, across1: inner.across1 + room };
  return {
    inside: countLines(at, inner, minRun, acrossSize),
    beside: beside.across0 >= 0 ? countLines(at, beside, minRun, acrossSize) : 0,
  };
}

/** Whether the lines belong to the portrait: many inside, few beside it. */
export function portraitStreaked(m: StreakMeasure): boolean {
  return m.inside >= MIN_STREAKS && m.beside < MIN_STREAKS;
}
