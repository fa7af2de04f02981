import { cropGrey, type GreyImage, toGrey } from '../image/grey.ts';
import type { NormalizedImage } from '../image/normalize.ts';
import type { Box } from '../image/raster.ts';
import { quantile } from '../image/stats.ts';
import { type Glyph, glyphs, uprightField } from './glyphs.ts';

/**
 * `font_inconsistency`: one glyph inside a field that is not of the field's font: another size
 * (its height breaks from the line of the capitals) or another weight (its strokes are much
 * thicker or thinner than the field's). Needs the field boxes from the reading step.
 */

/** Fields printed in capitals or digits only, where every glyph has the same height. */
const UNIFORM_HEIGHT_FIELDS = /^(document_number|date_of_birth|date_of_expiry|date_of_issue|mrz.*|surname)$/;
/**
 * Fields most documents print in capitals, some in mixed case (given names, a place, a
 * nationality): judged by height only where the glyphs themselves show capitals
 * (`capitalsOnly`, readsAsCapitals). Before, a substitution there was never judged: 17 of 44
 * targets of the tuning half's substitutions fell in fields never judged (with the paper
 * card's values). On the tuning side (read boxes; fresh draw `s23-tune`, 90 sources, and the
 * generated tuning half, 40) substitutions caught rose from 42 to 59 of 130, with no genuine
 * capture flagged (0 of 130) and none of the 4 real tuning pages; kept on a fresh holdout
 * (docs/decisions.md, issue 14, "Glyph substitutions in given names, place of birth and
 * nationality").
 */
const CAPITALS_FIELDS = /^(given_names|nationality|place_of_birth)$/;

/**
 * Below this glyph height (photo px) JPEG and resampling make height measures unreliable. A phone
 * capture's working copy prints an MRZ or a date 10–13 px high (generated corpus, fixtures), so
 * 12 px left most fields unjudged; measured on the field upsampled (FIELD_MIN_HEIGHT), where the
 * ink edge falls between pixels, a 10 px glyph's height is known to about ±0.5 px (5 %), a
 * quarter of the tolerance below.
 */
const MIN_GLYPH_HEIGHT = 10;
/**
 * A straightened field lower than this (px) is sampled larger (bilinear), so that glyph heights
 * are measured in fractions of a photo pixel rather than whole ones.
 */
const FIELD_MIN_HEIGHT = 40;
/**
 * A glyph whose height differs from the field's capital line by more than 18 % is from another
 * font or size: within one typeface, capitals and digits agree to a few percent. Calibrated on
 * the tuning half (docs/benchmarks.md, issue 14, session 3): 39 bona fide fields of phone
 * captures (synthetic tuning documents and fixture pages) measure at most 0.128, the real tuning
 * pages' fields as the reading step reads them at most 0.10; a digit from a font 0.8× the size
 * measures 0.18–0.21. Was 0.22, which let every 0.8× substitution pass.
 */
export const GLYPH_HEIGHT_TOLERANCE = 0.18;
/**
 * A glyph whose stroke width differs from the field's median by more than 45 % is of another
 * weight. Measured (strokeDeviation, field upsampled as above): genuine fields of drawn colour
 * cards 0.08–0.20, genuine MRZ lines of the fixtures' tuning half up to 0.37; a regular digit set
 * into a bold field at the same height 0.42–0.73, a serif one 0.76–1.2. Not used by the tamper
 * step: on the generated holdout (docs/benchmarks.md, issue 14) it caught 12/33 substitutions but
 * flagged 11/34 bona fide captures (real pages' names, places and dates mix weights and
 * scripts more than the four tuning pages did). Kept as a measure for a later, per-field-type
 * calibration.
 */
export const GLYPH_STROKE_TOLERANCE = 0.45;

/**
 * The stroke cue where one field's weight is steady enough to judge: a document number, printed
 * in one run of one face. A glyph whose stroke width differs from the number's median by more
 * than 30 % is read as another weight. Set on the tuning half (generated corpus, --drawn 10
 * --synth 20, and the real tuning pages): 30 bona fide document numbers measure at most 0.206
 * (the next 0.178, 0.175); substituted digits whose height passes 0.21 and 0.39. Dates are left
 * out: genuine ones measure up to 0.86 (month names, separators and digits of other widths), as
 * are MRZ lines (genuine up to 0.36) and names. Raised at medium at most: a review, never a fail
 * (the margin over the bona fide values is 1.5×, not far outside them). Opt-in
 * (IDV_TAMPER_NUMBER_STROKE=1, opt-in-cues.ts): on the real holdout half one genuine document
 * number measured 0.59, a second bona fide page flagged where the issue allows one.
 */
export const DOCUMENT_NUMBER_STROKE_TOLERANCE = 0.3;

/**
 * Largest relative deviation of a glyph height from the field's capital height, or null when
 * the field has too few measurable glyphs. Punctuation (under 40 % of the tallest glyph) and
 * thin slanted strokes ('/', taller than digits in many fonts) are left out.
 *
 * The capital height is a straight line along the field (capitalHeightLine), not one median:
 * on a photo taken at an angle the text shrinks steadily with distance (8–20 % over a
 * 44-character MRZ line on the fixtures), while a glyph from another font breaks from the line.
 *
 * Shorter glyphs are ambiguous. In an MRZ line (`fillers`) the filler '<' is a legitimate glyph
 * 65–85 % of the capitals' height (the more, the smaller and blurrier the print), so only
 * glyphs taller than the capitals are measured there. In other fields a shorter glyph counts
 * when it stands on the baseline, as a substituted glyph is set; marks printed at mid-height
 * (hyphens) do not.
 */
export function glyphHeightDeviation(
  image: NormalizedImage,
  box: Box & { quad?: [number, number][] },
  grey?: GreyImage,
  opts: { fillers?: boolean } = {},
): number | null {
  return fieldFontDeviation(image, box, grey, opts).height;
}

/**
 * Both font cues of one field: the largest relative height deviation (above) and the largest
 * relative stroke-width deviation of one glyph from the field's capitals (strokeDeviation);
 * null where the field has too few measurable glyphs. With them, the field's weight
 * (fieldWeight), which value-weight.ts compares across the side's values. `foreignInk` tells whether the component
 * with the largest height deviation, when it breaks GLYPH_HEIGHT_TOLERANCE, is text joined to
 * another mark's ink (joinedToOtherInk). `grey` (the photo's grey image) is read only for a box
 * without a quad, and made here when such a box comes without it.
 */
export function fieldFontDeviation(
  image: NormalizedImage,
  box: Box & { quad?: [number, number][] },
  grey?: GreyImage,
  opts: { fillers?: boolean; heights?: boolean; paddedByHeight?: boolean; capitalsOnly?: boolean } = {},
): { height: number | null; stroke: number | null; foreignInk?: boolean; weight?: number | null } {
  const none = { height: null, stroke: null };
  const height = box.quad
    ? Math.hypot(box.quad[3]![0] - box.quad[0]![0], box.quad[3]![1] - box.quad[0]![1])
    : 0;
  const scale = box.quad ? Math.max(1, Math.min(3, FIELD_MIN_HEIGHT / Math.max(1, height))) : 1;
  const crop = box.quad ? uprightField(image, box.quad, scale) : cropGrey(grey ?? toGrey(image), box);
  const all = glyphs(crop);
  const tallest = Math.max(0, ...all.map((g) => g.h));
  const letters = all.filter(
    (g) => g.h >= 0.4 * tallest && g.h >= MIN_GLYPH_HEIGHT * scale && g.w >= 0.2 * g.h && g.h < crop.height,
  );
  if (letters.length < 4) return none;
  // Mixed-case fields (names, places): no common height, but one stroke width for all glyphs.
  if (opts.heights === false) return { height: null, stroke: strokeDeviation(letters) };
  const capitals = capitalHeightLine(letters);
  if (!capitals) return none;
  const capitalAt = (g: Glyph) => capitals.at + capitals.slope * (g.x + g.w / 2);
  const baseline = quantile(
    capitals.inliers.map((g) => g.y + g.h),
    0.5,
  );
  // A value's box from the reading step reaches one line height beyond the value on each side
  // (read-document.ts fieldBox: character positions are estimated, and the value's end glyphs
  // must not be cut). When the reader glued a label to its value ("expiration:25.09.2031"), that
  // margin holds the label's last letter, a lowercase one standing on the baseline: a shorter
  // glyph whose centre lies in the margin is the neighbour's as likely as the value's, so only a
  // taller one counts there. Substitutions inside the value are judged as before.
  const margin = opts.paddedByHeight ? crop.height : 0;
  const inMargin = (g: Glyph) => g.x + g.w / 2 < margin || g.x + g.w / 2 > crop.width - margin;
  // The same for a label longer than the margin glued to its value ("N° / No 4385…", a Sahel
  // card's number read as one line with its label): a shorter glyph outside the value's own
  // words is the label's.
  const value = valueSpan(letters, capitals.inliers, capitalAt);
  const outsideValue = (g: Glyph) => g.x + g.w / 2 < value.from || g.x + g.w / 2 > value.to;
  let worst = 0;
  let odd: Glyph | null = null;
  // Glyphs breaking the tolerance, taller ones at a word's start apart (capitalsOnly).
  const breaking: { glyph: Glyph; taller: boolean }[] = [];
  for (const g of letters) {
    const expected = capitalAt(g);
    if (expected <= 0) continue;
    const deviation = (heightAboveBaseline(g, expected, baseline) - expected) / expected;
    if (deviation < 0) {
      if (opts.fillers || inMargin(g) || outsideValue(g)) continue;
      if (baseline - (g.y + g.h) > BASELINE_TOLERANCE * expected) continue;
    }
    if (Math.abs(deviation) > GLYPH_HEIGHT_TOLERANCE) breaking.push({ glyph: g, taller: deviation > 0 });
    if (Math.abs(deviation) > worst) {
      worst = Math.abs(deviation);
      odd = g;
    }
  }
  if (opts.capitalsOnly && !readsAsCapitals(breaking, letters, capitalAt))
    return { height: null, stroke: null };
  // Asked only of a break the tamper step reports: below the tolerance it changes nothing.
  const foreignInk =
    odd !== null &&
    worst > GLYPH_HEIGHT_TOLERANCE &&
    joinedToOtherInk(crop, odd, capitals.inliers, baseline, capitalAt(odd));
  return {
    height: worst,
    stroke: strokeDeviation(capitals.inliers),
    foreignInk,
    weight: fieldWeight(capitals.inliers, capitalAt),
  };
}

/**
 * The field's weight: its capitals' median stroke width over their median height. A font's
 * property (bold near 0.2, regular near 0.12), the same under any light: a value typed again in
 * another face or weight differs from the side's other values. Null below 4 capitals.
 */
export function fieldWeight(capitals: Glyph[], capitalAt: (g: Glyph) => number): number | null {
  if (capitals.length < 4) return null;
  const height = quantile(capitals.map(capitalAt), 0.5);
  return height > 0 ? quantile(capitals.map(strokeWidth), 0.5) / height : null;
}

/**
 * Whether a field that may be printed in mixed case (CAPITALS_FIELDS) shows capitals, so that its
 * heights can be judged: at most one glyph breaks the capitals' height, and not a taller one
 * opening a word. In mixed case the line is fitted to the lowercase letters, and every word's
 * capital and every ascender (d, h, l, t) stands above it: two glyphs or more, or one at the
 * start of a one-word value ("Moussa"). A forger's one glyph of another size inside capitals
 * breaks the line alone.
 */
function readsAsCapitals(
  breaking: { glyph: Glyph; taller: boolean }[],
  letters: Glyph[],
  capitalAt: (g: Glyph) => number,
): boolean {
  if (breaking.length === 0) return true;
  if (breaking.length > 1) return false;
  const { glyph, taller } = breaking[0]!;
  return !(taller && wordStarts(letters, capitalAt).has(glyph));
}

/** The first glyph of each word (splitWords). */
function wordStarts(letters: Glyph[], capitalAt: (g: Glyph) => number): Set<Glyph> {
  const sorted = [...letters].sort((a, b) => a.x - b.x);
  return new Set(splitWords(sorted, capitalAt).map((w) => w.glyphs[0]!));
}

/**
 * A glyph as wide as two of the field's capitals is not one glyph: a pen stroke or a stamp's
 * ring drawn across the value joins several glyphs into one component (a handwritten scribble
 * over a date made "16.06" one blob 4.4 capitals wide, 1.5× their height).
 */
const JOINED_WIDTH = 2;
/**
 * A glyph whose ink beyond the capitals' band is this much lighter than its ink inside it (both
 * as darkness under the paper) carries another, fainter ink: a stamp's ring crossing a digit
 * (0.3–0.65 of the text's darkness at a stamp's 45–80 % opacity). A glyph printed larger is one
 * ink throughout: its top is as dark as its body, at the same stroke width and blur.
 */
const FOREIGN_INK_DARKNESS = 0.7;

/**
 * Whether the component `g` that breaks the capitals' height is another mark's ink (a stamp, a
 * pen), alone or joined to text, rather than a glyph of another size: too wide for one glyph,
 * hanging below the line, or lighter where it leaves the capitals' band. Such a height says
 * nothing sure about the font: the tamper step holds it at review (index.ts).
 */
export function joinedToOtherInk(
  crop: GreyImage,
  g: Glyph,
  capitals: Glyph[],
  baseline: number,
  expected: number,
): boolean {
  const width = quantile(
    capitals.map((c) => c.w),
    0.5,
  );
  if (g.w > JOINED_WIDTH * width) return true;
  const top = baseline - expected;
  // Hanging below the line: its top under the capitals' line, its bottom under the baseline. A
  // glyph a forger sets stands on the baseline, or rises above the capitals' line when larger;
  // the arc of a stamp's ring crossing the line does neither (a blurred capture detaches it from
  // the glyphs: a stamped date on the generated tuning draw, docs/benchmarks.md, issue 14).
  const slack = BASELINE_TOLERANCE * expected;
  if (g.y > top + slack && g.y + g.h > baseline + slack) return true;
  const inside: number[] = [];
  const beyond: number[] = [];
  for (let y = g.y; y < g.y + g.h; y++) {
    const band = y >= top && y < baseline ? inside : beyond;
    for (let x = g.x; x < g.x + g.w; x++) band.push(crop.data[y * crop.width + x]!);
  }
  if (inside.length < 8 || beyond.length < 8) return false;
  const paper = quantile(crop.data, 0.5);
  // The darkest tenth of each part: its strokes, whatever share of it they cover.
  const darkness = (values: number[]) => paper - quantile(values, 0.1);
  const body = darkness(inside);
  return body > 0 && darkness(beyond) < FOREIGN_INK_DARKNESS * body;
}

/**
 * A glyph's height as the field's font sets it. A capital that reaches below the baseline with
 * its top on the capitals' line is a descender of the same face (J in DejaVu, Helvetica-like and
 * many passport faces, Q's tail): "JAN", "JUN" and "JUL" in dates stood 0.2–0.3 of the capital
 * height taller and were flagged on 35 of 36 such dates of a fresh generated draw (issue 14).
 * Its height is then measured from its top to the baseline. A glyph set larger by a forger
 * stands on the baseline and rises above the capitals' line, so it is still measured whole.
 */
function heightAboveBaseline(g: Glyph, expected: number, baseline: number): number {
  const bottom = g.y + g.h;
  const topOnCapitals = Math.abs(g.y - (baseline - expected)) <= BASELINE_TOLERANCE * expected;
  const belowBaseline = bottom - baseline > BASELINE_TOLERANCE * expected;
  return topOnCapitals && belowBaseline ? baseline - g.y : g.h;
}

/** A glyph's mean stroke width: its ink over half its outline (a stroke of width w and length L has w·L ink and 2·L outline). */
export const strokeWidth = (g: Glyph) => (2 * g.ink) / Math.max(1, g.edge);

/** How far a positive value departs from a reference, either way: max(ratio, 1/ratio) − 1. */
export const departure = (value: number, reference: number) =>
  Math.max(value / reference, reference / value) - 1;

/**
 * Largest relative difference between one glyph's stroke width and the field's median, over
 * the glyphs of capital height in capitals-only fields (a substituted glyph of another weight
 * keeps the height when the forger matched it; the height cue sees the others), over every
 * glyph in mixed-case ones. Null below 5 glyphs: the median of fewer is the odd glyph's own
 * company. MRZ fillers ('<') are shorter than the capitals and never among the glyphs measured.
 */
export function strokeDeviation(capitals: Glyph[]): number | null {
  if (capitals.length < 5) return null;
  const widths = capitals.map(strokeWidth);
  const median = quantile(widths, 0.5);
  if (median <= 0) return null;
  return Math.max(...widths.map((w) => departure(w, median)));
}

/**
 * The capitals' height along the field, h = at + slope·x, fitted by least squares on the glyphs
 * within ±10 % of the current fit (three rounds, starting from the glyphs near the field's tall
 * ones): fillers, punctuation and an odd glyph are left out of the fit, so they cannot pull it.
 * Null when fewer than 4 glyphs agree on a line.
 */
export function capitalHeightLine(letters: Glyph[]): { at: number; slope: number; inliers: Glyph[] } | null {
  const top = quantile(
    letters.map((g) => g.h),
    0.9,
  );
  let inliers = letters.filter((g) => g.h >= 0.85 * top && g.h <= 1.15 * top);
  let fit = { at: top, slope: 0 };
  for (let round = 0; round < 3; round++) {
    if (inliers.length < 4) return null;
    fit = lineFit(inliers);
    const f = fit;
    inliers = letters.filter((g) => {
      const e = f.at + f.slope * (g.x + g.w / 2);
      return Math.abs(g.h - e) <= CAPITAL_FIT_BAND * e;
    });
  }
  return inliers.length < 4 ? null : { ...fit, inliers };
}

function lineFit(gs: Glyph[]): { at: number; slope: number } {
  const xs = gs.map((g) => g.x + g.w / 2);
  const mx = xs.reduce((a, b) => a + b, 0) / gs.length;
  const my = gs.reduce((a, g) => a + g.h, 0) / gs.length;
  let sxy = 0;
  let sxx = 0;
  gs.forEach((g, i) => {
    sxy += (xs[i]! - mx) * (g.h - my);
    sxx += (xs[i]! - mx) ** 2;
  });
  const slope = sxx > 0 ? sxy / sxx : 0;
  return { at: my - slope * mx, slope };
}

/**
 * A gap between two glyphs wider than this share of the capital height separates words. Within
 * a word of capitals or digits the gaps measure 0.1–0.25 of the height; a space between words
 * 0.35 and more (0.38 between a Sahel card's "No" label and its number, tuning half). A narrow
 * glyph substituted smaller ('1' at 0.72×) can stand 0.3–0.43 off its neighbours: a word of its
 * own, which valueSpan keeps within the value.
 */
export const WORD_GAP = 0.3;

/**
 * Where the value lies along a field crop: from the first to the last word (glyphs split at
 * WORD_GAP) holding a glyph of capital height. A value is printed in capitals or digits
 * (UNIFORM_HEIGHT_FIELDS, and CAPITALS_FIELDS where they show capitals); a label glued to it by
 * the reading step is printed smaller or in lowercase ("N° / No", "Date of birth:"), so none of
 * its glyphs reaches the capitals' height.
 * What lies beyond the value's words at one end is set aside only when it holds two glyphs or
 * more (a label is a word); a single shorter glyph there is a substitution at the value's end
 * as likely, and is judged.
 */
export function valueSpan(
  letters: Glyph[],
  capitals: Glyph[],
  capitalAt: (g: Glyph) => number,
): { from: number; to: number } {
  const sorted = [...letters].sort((a, b) => a.x - b.x);
  const isCapital = new Set(capitals);
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const word of splitWords(sorted, capitalAt)) {
    if (!word.glyphs.some((g) => isCapital.has(g))) continue;
    from = Math.min(from, word.glyphs[0]!.x);
    to = Math.max(to, word.right);
  }
  const centre = (g: Glyph) => g.x + g.w / 2;
  const before = sorted.filter((g) => centre(g) < from).length;
  const after = sorted.filter((g) => centre(g) > to).length;
  return {
    from: before >= 2 ? from : Number.NEGATIVE_INFINITY,
    to: after >= 2 ? to : Number.POSITIVE_INFINITY,
  };
}

/**
 * The words of a field, left to right: glyphs (sorted by x) split where the gap from the word's
 * rightmost ink so far (glyphs of a word may overlap in x) exceeds WORD_GAP of the capital
 * height. One pass: a field of fine print can hold a "word" of hundreds of specks.
 */
function splitWords(sorted: Glyph[], capitalAt: (g: Glyph) => number): { glyphs: Glyph[]; right: number }[] {
  const words: { glyphs: Glyph[]; right: number }[] = [];
  let word: { glyphs: Glyph[]; right: number } | null = null;
  for (const g of sorted) {
    const last = word?.glyphs.at(-1);
    if (!word || !last || g.x - word.right > WORD_GAP * capitalAt(last)) {
      word = { glyphs: [], right: Number.NEGATIVE_INFINITY };
      words.push(word);
    }
    word.glyphs.push(g);
    word.right = Math.max(word.right, g.x + g.w);
  }
  return words;
}

/** Glyphs within ±10 % of the fitted capital height count as capitals (±1–2 px at 12–20 px). */
const CAPITAL_FIT_BAND = 0.1;
/** A shorter glyph whose bottom is within 8 % of the capital height of the baseline stands on it (±1–2 px). */
const BASELINE_TOLERANCE = 0.08;

/**
 * How a field's glyph heights are judged: `uniform` (capitals or digits by nature), `capitals`
 * (judged only when its glyphs read as capitals: fieldFontDeviation's `capitalsOnly`), or not
 * at all.
 */
export function heightRuleOf(field: string): 'uniform' | 'capitals' | null {
  if (UNIFORM_HEIGHT_FIELDS.test(field)) return 'uniform';
  return CAPITALS_FIELDS.test(field) ? 'capitals' : null;
}
