import { MRZ_LAYOUTS, type MrzFormat } from '@idv/core';
import { type Point, type Quad, type RgbImage, warpQuad } from '../image/raster.ts';
import { otsu } from '../image/stats.ts';
import type { PageReading } from '../ocr/page.ts';
import type { MrzRow } from './locate.ts';

/**
 * How many characters an MRZ row holds, measured on its ink rather than on its reading. OCR-B
 * is monospaced and every MRZ position is inked (a filler '<' is a chevron), so a row is a run
 * of evenly spaced glyphs: its character pitch is the period of the ink along the row, and its
 * length is its ink span over that pitch. Readers drop fillers (a run of '<<<<<<<<' read as
 * four) and the text detector often stops before a long filler run, so a 44-character TD3
 * row can be read as 36 and taken for a TD2; the ink still says 44.
 */

export interface RowInk {
  /** Ink span of the row in the page frame (may reach beyond the detected box). */
  left: number;
  right: number;
  /** Character pitch in page-frame units. */
  pitch: number;
  /** Characters the span holds at that pitch. */
  chars: number;
}

/** Strip height the row is sampled at (px): enough for a glyph's gaps, cheap to scan. */
const STRIP_HEIGHT = 24;
/** Vertical share of the row's box sampled: the glyph body, not the neighbouring rows. */
const BAND_SHARE = 0.7;
/**
 * How far beyond the detected box the ink is followed, in line heights: a TD3 row read as a
 * TD2 lacks 8 characters, about 6 line heights of OCR-B; 10 leaves room for a box that also
 * lost characters on its left.
 */
const SEARCH_HEIGHTS = 10;
/**
 * OCR-B's pitch in line heights lies about 0.55-0.75 of the detected box's height (the box is
 * a little taller than the glyphs); the period is searched in a wider range so that a loose or
 * tight box still finds it.
 */
const MIN_PITCH_HEIGHTS = 0.35;
const MAX_PITCH_HEIGHTS = 1.2;
/**
 * A gap without ink longer than this many pitches is a space, and an MRZ has none: every
 * position is a glyph or a filler chevron. Inside an MRZ row the widest gap is the space around
 * a narrow glyph ('1', 'I'), under one pitch; a word space in printed capitals is a whole empty
 * cell plus the glyph gaps, about 1.3-1.5 pitches. Such a gap ends the row when following the
 * ink beyond the detected box, and inside the box it means the row is printed words (a title
 * block in the MRZ font), which the ink does not measure as MRZ.
 */
const MAX_GAP_PITCHES = 1.1;
/**
 * A column this dark over the band is solid; a glyph's solid columns are its vertical strokes, a
 * fraction of a pitch wide, so a solid run wider than MAX_SOLID_PITCHES is not text.
 */
const SOLID_COLUMN_SHARE = 0.9;
const MAX_SOLID_PITCHES = 1;
/** A column is ink when at least this share of the band's rows are dark (specks are not). */
const INK_COLUMN_SHARE = 0.08;
/**
 * The autocorrelation peak must reach this much of the zero-lag energy to call the ink periodic:
 * printed OCR-B rows give 0.4-0.8; noise, guilloches and proportional text much less.
 */
const MIN_PERIODICITY = 0.2;

/**
 * The strip is averaged over a (2r+1)² box before it is thresholded: a halftone photocopy prints
 * the paper as a screen of dots as dark as the glyphs, each column of the band crosses some, and
 * every column reads as ink (a row then measures to the card's edge: 33 characters for 30). At
 * the strip's scale (24 px for 0.7 of a line height) a glyph's stroke is 3-4 px wide and a dot
 * screen's period 2-4 px: a 5 px mean turns the dots into an even grey lighter than a stroke,
 * which stays dark.
 */
const SMOOTH_RADIUS = 2;
/**
 * OCR-B glyphs ink about a quarter to a third of the band; when more than half of it falls on the
 * dark side of the threshold, the paper's tone is there too and the dark side is split again.
 */
const MAX_DARK_SHARE = 0.5;

/** Mean over a (2r+1)² box of a w×h image (clipped at the edges). */
function boxMean(src: Float32Array, w: number, h: number, r: number): Float32Array {
  const rows = new Float32Array(src.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      let n = 0;
      for (let xx = Math.max(0, x - r); xx <= Math.min(w - 1, x + r); xx++, n++) s += src[y * w + xx]!;
      rows[y * w + x] = s / n;
    }
  }
  const out = new Float32Array(src.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      let n = 0;
      for (let yy = Math.max(0, y - r); yy <= Math.min(h - 1, y + r); yy++, n++) s += rows[yy * w + x]!;
      out[y * w + x] = s / n;
    }
  }
  return out;
}

/** Ink columns of the band around `row`, sampled from `left` to `right` (page frame). */
function inkColumns(img: RgbImage, page: PageReading, row: MrzRow, left: number, right: number) {
  const half = (row.height * BAND_SHARE) / 2;
  const corners: Point[] = [
    [left, row.y - half],
    [right, row.y - half],
    [right, row.y + half],
    [left, row.y + half],
  ];
  const quad = corners.map((p) => page.toImage(p)) as Quad;
  const scale = STRIP_HEIGHT / (2 * half);
  const width = Math.max(8, Math.round((right - left) * scale));
  const strip = warpQuad(img, quad, width, STRIP_HEIGHT);
  const grey = new Float32Array(width * STRIP_HEIGHT);
  for (let i = 0; i < grey.length; i++)
    grey[i] = 0.299 * strip.rgb[3 * i]! + 0.587 * strip.rgb[3 * i + 1]! + 0.114 * strip.rgb[3 * i + 2]!;
  const smooth = boxMean(grey, width, STRIP_HEIGHT, SMOOTH_RADIUS);
  let t = otsu(smooth);
  // Toned paper under halftone: the dots' grey falls on the dark side of the first split with
  // the glyphs; the glyphs are the darker part of that side.
  const dark = smooth.filter((g) => g < t);
  if (dark.length > MAX_DARK_SHARE * smooth.length) t = otsu(dark);
  const profile = new Float32Array(width);
  for (let x = 0; x < width; x++) {
    let n = 0;
    for (let y = 0; y < STRIP_HEIGHT; y++) if (smooth[y * width + x]! < t) n++;
    profile[x] = n / STRIP_HEIGHT;
  }
  return { profile, scale };
}

/**
 * Period of the ink profile between `a` and `b` (strip columns): the lag of the highest
 * autocorrelation peak of the mean-removed profile in the pitch range, or null when the ink is
 * not periodic enough to be monospaced text.
 */
export function inkPeriod(profile: Float32Array, a: number, b: number, minLag: number, maxLag: number) {
  const n = b - a;
  if (n < 3 * maxLag) return null;
  let mean = 0;
  for (let x = a; x < b; x++) mean += profile[x]!;
  mean /= n;
  const v = Float64Array.from({ length: n }, (_, i) => profile[a + i]! - mean);
  const corr = (lag: number) => {
    let s = 0;
    for (let i = 0; i + lag < n; i++) s += v[i]! * v[i + lag]!;
    return s / (n - lag);
  };
  const zero = corr(0);
  if (zero <= 0) return null;
  const lo = Math.max(2, Math.floor(minLag));
  const hi = Math.ceil(maxLag);
  const c = Array.from({ length: hi + 2 }, (_, lag) => (lag >= lo - 1 ? corr(lag) : 0));
  let best = -1;
  let bestValue = Number.NEGATIVE_INFINITY;
  for (let lag = lo; lag <= hi; lag++) {
    // A local maximum: the first true period, not the slope up to it.
    if (c[lag]! >= c[lag - 1]! && c[lag]! >= c[lag + 1]! && c[lag]! > bestValue) {
      best = lag;
      bestValue = c[lag]!;
    }
  }
  if (best < 0 || bestValue < MIN_PERIODICITY * zero) return null;
  // Twice the period correlates nearly as well; the shorter one is the pitch when it holds.
  const halfLag = Math.round(best / 2);
  if (halfLag >= lo && c[halfLag]! > 0.8 * bestValue) best = halfLag;
  // Sub-sample refinement (parabola through the peak and its neighbours).
  const y0 = c[best - 1]!;
  const y1 = c[best]!;
  const y2 = c[best + 1]!;
  const den = y0 - 2 * y1 + y2;
  return den < 0 ? best + (0.5 * (y0 - y2)) / den : best;
}

/** The ink extent, pitch and character count of one MRZ row, or null when not measurable. */
export function rowInk(img: RgbImage, page: PageReading, row: MrzRow): RowInk | null {
  const h = row.height;
  const x0 = row.left - SEARCH_HEIGHTS * h;
  const x1 = row.right + SEARCH_HEIGHTS * h;
  const { profile, scale } = inkColumns(img, page, row, x0, x1);
  const boxA = Math.max(0, Math.round((row.left - x0) * scale));
  const boxB = Math.min(profile.length, Math.round((row.right - x0) * scale));
  const minLag = MIN_PITCH_HEIGHTS * h * scale;
  const maxLag = MAX_PITCH_HEIGHTS * h * scale;
  const period = inkPeriod(profile, boxA, boxB, minLag, maxLag);
  if (period === null) return null;
  const inked = (x: number) => profile[x]! >= INK_COLUMN_SHARE;
  const maxGap = MAX_GAP_PITCHES * period;
  // From the detected box outwards, ink continues while no gap exceeds maxGap.
  // A run of solid columns wider than a glyph is no glyph: the dark background beyond the
  // document's edge (an MRZ printed near it), which the ink must not be followed into.
  const maxSolid = MAX_SOLID_PITCHES * period;
  const follow = (start: number, step: 1 | -1) => {
    let last = start;
    let solidFrom = -1;
    for (let x = start; x >= 0 && x < profile.length; x += step) {
      if (profile[x]! >= SOLID_COLUMN_SHARE) {
        if (solidFrom < 0) solidFrom = x;
        if (Math.abs(x - solidFrom) > maxSolid) return solidFrom === start ? start : solidFrom - step;
      } else solidFrom = -1;
      if (inked(x)) last = x;
      else if (Math.abs(x - last) > maxGap) break;
    }
    return last;
  };
  let a = boxA;
  while (a < boxB && !inked(a)) a++;
  let b = boxB - 1;
  while (b > a && !inked(b)) b--;
  if (b <= a) return null;
  if (widestGap(profile, a, b, inked) > maxGap) return null;
  a = follow(a, -1);
  b = follow(b, 1);
  const pitch = wholeSpanPitch(profile, a, b + 1, boxB - boxA, period, minLag, maxLag);
  // The span runs from the first glyph's left to the last glyph's right: one pitch less one
  // inter-glyph gap short of chars × pitch (an OCR-B glyph fills about 0.6 of its pitch).
  const chars = Math.round((b + 1 - a) / pitch + 0.4);
  return { left: x0 + a / scale, right: x0 + (b + 1) / scale, pitch: pitch / scale, chars };
}

/**
 * A whole-span pitch this far from the box's is another period (a multiple, a guilloche's), not
 * the same pitch changing along the row.
 */
const MAX_PITCH_DRIFT = 0.12;

/**
 * The pitch of a row whose ink runs beyond its detected box, measured again over the whole span
 * (`a` to `b`, `boxLength` the box's part): under perspective the pitch changes along the row,
 * and the box's part alone (the row's nearer or farther half when the detector stopped before a
 * filler run) misjudges the rest by several characters over a TD3 row (a turned passport's
 * rows measured 47 characters for 44, no format). The box's `period` stands otherwise.
 */
function wholeSpanPitch(
  profile: Float32Array,
  a: number,
  b: number,
  boxLength: number,
  period: number,
  minLag: number,
  maxLag: number,
): number {
  if (b - a <= boxLength) return period;
  const whole = inkPeriod(profile, a, b, minLag, maxLag);
  return whole !== null && Math.abs(whole - period) <= MAX_PITCH_DRIFT * period ? whole : period;
}

/** The longest run of columns without ink between `a` and `b`. */
function widestGap(profile: Float32Array, a: number, b: number, inked: (x: number) => boolean): number {
  let widest = 0;
  let run = 0;
  for (let x = a; x <= b && x < profile.length; x++) {
    run = inked(x) ? 0 : run + 1;
    widest = Math.max(widest, run);
  }
  return widest;
}

/**
 * Characters per row of a block as its ink says (the median over the rows measured), with the
 * rows as the ink outlines them: each measured row gets its `pitch` and its extent widened to the
 * ink's when the ink reaches beyond the detected box (the block is then re-read over that
 * extent). Copies: the page's rows stay as detected for the other candidates. Null when no
 * row's ink could be measured.
 */
export interface BlockInk {
  chars: number;
  rows: MrzRow[];
  /** Each row's count, null where its ink was not measurable. */
  counts?: (number | null)[];
}
/** Ink before a row's box shorter than this many pitches is not taken for missed glyphs. */
const MIN_LEFT_EXTENSION = 1.5;
export function blockInkChars(img: RgbImage, page: PageReading, rows: MrzRow[]): BlockInk | null {
  const counts: number[] = [];
  const each: (number | null)[] = [];
  const widened = rows.map((r) => {
    const ink = rowInk(img, page, r);
    each.push(ink?.chars ?? null);
    if (!ink) return r;
    counts.push(ink.chars);
    // The row starts at the box unless the ink runs on MIN_LEFT_EXTENSION pitches or more before
    // it: a detector misses characters at a row's end (filler runs), rarely its first glyph, and a
    // shorter run before the box is a coloured stripe or a frame line beside the row, which the
    // crop would hand to the recogniser as one more character ('PE' for 'P<').
    const left = r.left - ink.left >= MIN_LEFT_EXTENSION * ink.pitch ? ink.left : r.left;
    return { ...r, pitch: ink.pitch, left, right: Math.max(r.right, ink.right) };
  });
  if (counts.length === 0) return null;
  counts.sort((x, y) => x - y);
  return { chars: counts[Math.floor(counts.length / 2)]!, rows: widened, counts: each };
}

/**
 * The format a block of `lineCount` rows of `chars` characters is, or null when the ink does not
 * say it clearly. The count must be within MAX_CHAR_ERROR of the format's line length and
 * nearer to it than to any other format's, whatever its line count: a page reading may miss a
 * row (two rows seen of a TD1 card's three), and two 30-character rows must not be taken for a
 * 36-character TD2. The ink count is off by a character or two on degraded rows (a blurred
 * filler run merges, a speck extends the span); TD1, TD2 and TD3 lengths are 6 and 8 apart.
 */
const MAX_CHAR_ERROR = 2;
export function formatFromInk(lineCount: number, chars: number): MrzFormat | null {
  const byError = (Object.keys(MRZ_LAYOUTS) as MrzFormat[])
    .map((f) => ({ f, e: Math.abs(chars - MRZ_LAYOUTS[f].lineLength) }))
    .sort((a, b) => a.e - b.e);
  const best = byError[0]!;
  if (best.e > MAX_CHAR_ERROR || byError[1]!.e === best.e) return null;
  return MRZ_LAYOUTS[best.f].lineCount === lineCount ? best.f : null;
}
