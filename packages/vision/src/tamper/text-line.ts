import type { GreyImage } from '../image/grey.ts';
import type { Box } from '../image/raster.ts';
import { quantile } from '../image/stats.ts';

/**
 * Whether a text box the reading step gave is one line of text, the only thing the field
 * detectors know how to judge. The reading step sometimes merges a box over several lines (a
 * rotated page's value read together with the lines beside it) or returns a box around one or
 * two glyphs; a glyph-sized box tight around a bold letter has ink for its "paper tone", and a
 * box over a label line and a value line mixes two fonts: both look like a forgery to the field
 * detectors when they are only a reading accident (docs/benchmarks.md, issue 14). Light text on
 * a dark ground (a header in a coloured band) is not judged either: the cues measure dark ink on
 * lighter paper, and there the letters would be the paper.
 */

/**
 * Below this height (px, across the text) nothing in a box can be measured: the tone cue needs
 * a ring a fifth of the height away and the font cue glyphs of 10 px (font-consistency.ts).
 */
export const MIN_LINE_HEIGHT = 8;
/**
 * A line of text is longer than high: the reading step's value boxes are padded by about one
 * line height on each side (read-document.ts), so even a one-character value measures over
 * 2 heights; a read line of two glyphs about 1.3. A box under 1.5 heights long holds one or two
 * glyphs (or its quad runs across the text, not along it): not a line.
 */
export const MIN_LINE_ASPECT = 1.5;
/** A text box given by its quad, or by its bounds (then the text runs along x). */
export type LineBox = { quad?: [number, number][]; w?: number; h?: number };

/** The size of a box along (w) and across (h) its text: from its quad (TL, TR, BR, BL) when given. */
export function lineShape(box: LineBox): { w: number; h: number } {
  const q = box.quad;
  if (!q) return { w: box.w ?? 0, h: box.h ?? 0 };
  return {
    w: Math.hypot(q[1]![0] - q[0]![0], q[1]![1] - q[0]![1]),
    h: Math.hypot(q[3]![0] - q[0]![0], q[3]![1] - q[0]![1]),
  };
}

/** Whether a box has the proportions of a line of text (see the two constants above). */
export function isLineShaped(shape: { w: number; h: number }): boolean {
  return shape.h >= MIN_LINE_HEIGHT && shape.w >= MIN_LINE_ASPECT * shape.h;
}

/**
 * A row belongs to a band of text when its ink covers at least this share of the densest row's:
 * the rows between two lines carry none (or a stray descender), the rows of a line a quarter or
 * more of the densest (capitals, digits, the x-height of lowercase text). Ascender-only rows of a
 * lowercase line fall under it, but they touch their own line's band, so they never make a
 * second one.
 */
const BAND_ROW_SHARE = 0.15;
/**
 * A band counts as a line when it is at least this share of the box's height: an underline, the
 * stroke of a form's entry field or the dot row of a filler is thinner (1–3 px in a 20–40 px box).
 */
const BAND_MIN_SHARE = 0.15;
/** Ink: darker than halfway between the box's paper (75th percentile) and its darkest 5 %; needs this much contrast. */
const MIN_INK_CONTRAST = 30;
/**
 * Dark text on paper covers less than half of its line's box: strokes are thin beside the gaps
 * between and around them. On the tuning draw `s31-tune` (read boxes of 150 captures, colour
 * cards and synthetic documents printed with dense security print) values covered at most 0.42
 * of their boxes and read lines of dark text at most 0.47. A box more than half "ink" holds
 * light text on a dark ground (a card's header in a coloured band measured 0.67–0.70): its
 * 75th percentile, the "paper" every field cue measures against, is the letters themselves, and
 * the in-painting cue took the flat band between them for a fill (smooth-fill.ts).
 */
export const MAX_INK_SHARE = 0.5;
/** textBands of a box whose text is lighter than its ground: no line the field cues can judge. */
export const LIGHT_ON_DARK = Number.POSITIVE_INFINITY;

/**
 * The bands of text rows inside `inner` on `canvas` (the box straightened along its text, or the
 * photo itself for an axis-aligned box): 0 when the box holds no ink (an erased value is still
 * a field to judge), 1 for a line, 2 or more for a box merged over several lines, LIGHT_ON_DARK
 * when more than MAX_INK_SHARE of the box is ink. `paperTone`: the 75th percentile of those
 * pixels when the caller has it already (fieldPaperTone).
 */
export function textBands(canvas: GreyImage, inner: Box, paperTone?: number): number {
  const x0 = Math.max(0, Math.round(inner.x));
  const y0 = Math.max(0, Math.round(inner.y));
  const x1 = Math.min(canvas.width, Math.round(inner.x + inner.w));
  const y1 = Math.min(canvas.height, Math.round(inner.y + inner.h));
  if (x1 - x0 < 2 || y1 - y0 < 2) return 0;
  const values = new Float32Array((x1 - x0) * (y1 - y0));
  for (let y = y0, n = 0; y < y1; y++)
    for (let x = x0; x < x1; x++) values[n++] = canvas.data[y * canvas.width + x]!;
  const paper = paperTone ?? quantile(values, 0.75);
  const dark = quantile(values, 0.05);
  if (paper - dark < MIN_INK_CONTRAST) return 0;
  const t = (paper + dark) / 2;
  const rows: number[] = [];
  let total = 0;
  for (let y = y0; y < y1; y++) {
    let ink = 0;
    for (let x = x0; x < x1; x++) if (canvas.data[y * canvas.width + x]! < t) ink++;
    rows.push(ink);
    total += ink;
  }
  if (total > MAX_INK_SHARE * values.length) return LIGHT_ON_DARK;
  const densest = Math.max(...rows);
  if (densest === 0) return 0;
  const minBand = Math.max(2, BAND_MIN_SHARE * (y1 - y0));
  let bands = 0;
  let run = 0;
  for (const ink of [...rows, 0]) {
    if (ink >= BAND_ROW_SHARE * densest) run++;
    else {
      if (run >= minBand) bands++;
      run = 0;
    }
  }
  return bands;
}

/** A box the field detectors may judge: line-shaped, and not holding two or more lines of text. */
export function isOneTextLine(box: LineBox, canvas: GreyImage, inner: Box): boolean {
  return isLineShaped(lineShape(box)) && textBands(canvas, inner) <= 1;
}
