import type { FaceBox } from '../faces/detect.ts';
import type { Grey } from './pixels.ts';

/**
 * `portrait_edge`, second cue: a portrait replaced *inside* the genuine frame keeps the frame's
 * real edges, so the cut-edge test (portrait-edge.ts) cannot see it. What such a swap does leave
 * is the mark of the tool that fitted the new photo into the old frame: resampled and blended
 * photos carry thin (1–2 px) straight lines that run along the image grid for a long way, across
 * skin, hair and background alike. A photographed face has no such lines: its edges bend, hair
 * strands wander off a pixel column within a few rows, and print texture (halftone, guilloche)
 * is diagonal or short.
 *
 * Measured along the face's vertical axis only (the columns of an upright face, the rows of a
 * face turned by 90°): across that axis, eyebrows, eyes and lips are long horizontal lines by
 * nature.
 *
 * Guard: the same measure on the document beside the portrait must stay low. Lines that run
 * through the whole picture (a scanner's dirty bar, a screen's pixel rows, vertical security
 * print) are not the portrait's own and are left to other detectors.
 */

/** Smallest face (box width, px) on which 1–2 px lines are resolved apart from print and JPEG texture. */
export const STREAK_MIN_FACE_WIDTH = 80;
/** Grey levels a line pixel stands off its neighbours 2 px away (JPEG noise on skin: 1–3 levels). */
const LINE_CONTRAST = 8;
/**
 * A line stands on smooth ground: its two flanks differ by at most this share of the line's own
 * contrast. Hair strands and print texture sit among other strands, whose flanks disagree.
 */
const FLANK_TOLERANCE = 0.5;
/** A line must run straight for this share of the face height (and at least MIN_RUN_PX). */
const MIN_RUN_FRACTION = 0.2;
const MIN_RUN_PX = 20;
/**
 * Distinct lines through the face that make the sign. Measured: every bona fide portrait of the
 * fixture documents of at least STREAK_MIN_FACE_WIDTH (also upscaled 2×) and 134 photographed
 * faces (fixture faces at 1×, 2× and 3×) carry none; the SIDTD portrait swap carries 5–6.
 * Three straight lines through one face are beyond what a photographed face shows.
 */
export const MIN_STREAKS = 3;
/** Line count at which the sign is certain (strength 1). */
export const STREAKS_UNMISTAKABLE = 6;

export interface StreakMeasure {
  /** Long straight lines through the face, along its vertical axis. */
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
    let hasLine = false;
    for (let b = b0; b < b1 && !hasLine; b++) {
      const left = at(a - 2, b);
      const right = at(a + 2, b);
      const l = at(a, b) - (left + right) / 2;
      const flanksAgree = Math.abs(left - right) <= FLANK_TOLERANCE * Math.abs(l);
      const s = Math.abs(l) >= LINE_CONTRAST && flanksAgree ? Math.sign(l) : 0;
      if (s !== 0 && s === sign) run++;
      else {
        run = s === 0 ? 0 : 1;
        sign = s;
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
export function measurePortraitStreaks(grey: Grey, face: FaceBox): StreakMeasure | null {
  if (face.w < STREAK_MIN_FACE_WIDTH) return null;
  // Upright face: its vertical axis runs down the image columns. Eyes one above the other: the
  // face (and the document) is turned by 90°, its vertical axis runs along the image rows.
  const [r, l] = face.landmarks;
  const turned = r !== undefined && l !== undefined && Math.abs(l[1] - r[1]) > Math.abs(l[0] - r[0]);
  const { data, width, height } = grey;
  const at = turned
    ? (across: number, along: number) =>
        data[Math.min(width - 1, along) + Math.min(height - 1, across) * width]!
    : (across: number, along: number) =>
        data[Math.min(width - 1, across) + Math.min(height - 1, along) * width]!;
  // In the oriented frame: `across` = image x (upright) or y (turned); `along` the other axis.
  const [acrossStart, acrossLen, alongStart, alongLen, acrossSize, alongSize] = turned
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
