import type { RgbImage } from '../../../src/image/raster.ts';
import { quantile } from '../../../src/image/stats.ts';
import { formatDate } from '../../synth/compose.ts';
import type { DateFormat } from '../../synth/layouts.ts';
import { grownRect, onionPeelFill } from './inpaint.ts';
import { drawSvg } from './raster-io.ts';
import type { Rng } from './rng.ts';
import type { Rect } from './types.ts';

/**
 * Text forgeries on one field:
 * - overwritten: the value painted over with the paper colour around it (a flat fill: the
 *   security print under it is gone) and a new value typed in a common font (a date as a date,
 *   a name in capitals, a number in digits);
 * - in-painted: the field selected with a margin and in-painted, then a new value typed;
 * - glyph substitution: one character of the value (a digit of a date or number) cut out and
 *   replaced by a character from another font, size or weight: the classic changed digit.
 */

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function overwriteField(
  img: RgbImage,
  box: Rect,
  field: string,
  rng: Rng,
  look: { family?: string; ink?: number } = {},
): Promise<RgbImage> {
  const paper = ringColour(img, box);
  const pad = Math.round(box.h * 0.12);
  const out = fillRect(
    img,
    { x: box.x - pad, y: box.y - pad, w: box.w + 2 * pad, h: box.h + 2 * pad },
    paper,
  );
  return typeValue(out, box, field, rng, look);
}

/**
 * The field selected with a margin of 0.25–0.8 of its height (a forger's rectangle around it),
 * in-painted from the selection's border (inpaint.ts: the tones carried in, the printed pattern
 * gone), and a new value typed in a common font: how SIDTD made its text forgeries, and what an
 * image editor's fill does.
 */
export async function inpaintField(img: RgbImage, box: Rect, field: string, rng: Rng): Promise<RgbImage> {
  const margin = box.h * rng.between(0.25, 0.8);
  return typeValue(onionPeelFill(img, grownRect(box, margin, img.width, img.height)), box, field, rng);
}

/** A new value typed into the field's box (a date as a date, a name in capitals, a number in digits). */
async function typeValue(
  out: RgbImage,
  box: Rect,
  field: string,
  rng: Rng,
  look: { family?: string; ink?: number } = {},
): Promise<RgbImage> {
  const text = /date/.test(field) ? typedDate(field, rng) : randomValue(box, field, rng);
  const size = box.h * rng.between(0.85, 1.05);
  const family = look.family ?? rng.pick(['DejaVu Sans', 'DejaVu Serif', 'DejaVu Sans Mono']);
  const ink = look.ink ?? Math.round(rng.between(10, 60));
  return drawSvg(
    out,
    `<text x="${box.x}" y="${box.y + box.h * 0.86}" font-family="${family}" font-size="${size.toFixed(1)}" textLength="${box.w}" lengthAdjust="spacingAndGlyphs" fill="rgb(${ink},${ink},${ink})">${esc(text)}</text>`,
  );
}

/** As many random capitals or digits as fit the box (a number, a name typed over). */
function randomValue(box: Rect, field: string, rng: Rng): string {
  const chars = Math.max(3, Math.round(box.w / (box.h * 0.62)));
  const digits = /number|mrz|personal/.test(field);
  let text = '';
  for (let i = 0; i < chars; i++)
    text += digits
      ? String(Math.floor(rng.next() * 10))
      : String.fromCharCode(65 + Math.floor(rng.next() * 26));
  return text;
}

/** Forms a typed date takes: the synthetic documents' commonest (synth/compose.ts formatDate). */
const TYPED_DATE_FORMS: DateFormat[] = ['dots', 'slashes', 'month_en'];

/**
 * The years a forger types into each date (first year, how many): an adult's birth, a recent
 * issue, an expiry pushed into the future (the point of rewriting one).
 */
const TYPED_YEARS: Record<string, [number, number]> = {
  date_of_birth: [1950, 58],
  date_of_issue: [2016, 11],
  date_of_expiry: [2027, 10],
};

/**
 * A date a forger types over a date: a real date in one of the forms documents print (the one of
 * the page is not known here), not a run of digits that no reader takes for a date. Before this,
 * the reading step left most overwritten dates unread, so the field cues never saw them with the
 * boxes the service reads (docs/decisions.md, issue 14, overwritten dates).
 */
function typedDate(field: string, rng: Rng): string {
  const day = String(1 + Math.floor(rng.next() * 28)).padStart(2, '0');
  const month = String(1 + Math.floor(rng.next() * 12)).padStart(2, '0');
  const [first, span] = TYPED_YEARS[field] ?? TYPED_YEARS.date_of_birth!;
  const year = String(first + Math.floor(rng.next() * span));
  return formatDate(`${year}-${month}-${day}`, rng.pick(TYPED_DATE_FORMS));
}

export async function substituteGlyph(
  img: RgbImage,
  box: Rect,
  field: string,
  rng: Rng,
  look: { scale?: number; family?: string; weight?: string } = {},
): Promise<RgbImage> {
  const columns = glyphColumns(img, box);
  // Not the first or last glyph (the changed digit sits inside the value), and a whole glyph:
  // a forger changes a digit or a letter, not a date's dot or a name's apostrophe.
  const candidates = wholeGlyphs(img, columns, box).filter((c) => c !== columns[0] && c !== columns.at(-1));
  if (candidates.length === 0) return overwriteField(img, box, field, rng);
  const [x0, x1] = candidates[Math.floor(rng.next() * candidates.length)]!;
  const paper = ringColour(img, box);
  const out = fillRect(img, { x: x0 - 1, y: box.y, w: x1 - x0 + 3, h: box.h }, paper);
  const digits = /date|number|mrz|personal/.test(field);
  const ch = digits
    ? String(Math.floor(rng.next() * 10))
    : String.fromCharCode(65 + Math.floor(rng.next() * 26));
  // A different look: taller or shorter by 15–30 %, another family, another weight.
  const scale = look.scale ?? rng.pick([0.72, 0.8, 1.2, 1.3]);
  // The replaced glyph's own ink height is the field's capital height (0.73 em in these fonts).
  const [top, bottom] = inkRows(img, x0, x1, box);
  const size = ((bottom - top + 1) / 0.73) * scale;
  const family = look.family ?? rng.pick(['DejaVu Serif', 'DejaVu Sans Mono', 'DejaVu Sans']);
  const weight = look.weight ?? rng.pick(['bold', 'normal', '300']);
  return drawSvg(
    out,
    `<text x="${(x0 + x1) / 2}" y="${bottom + 1}" text-anchor="middle" font-family="${family}" font-weight="${weight}" font-size="${size.toFixed(1)}" fill="rgb(20,20,20)">${esc(ch)}</text>`,
  );
}

/**
 * The column runs of a value that hold a whole glyph: ink at least 80 % as tall as the value's
 * capitals (the 75th percentile of the runs' ink heights), no wider than one and a half of the
 * runs' median width. A date's dot, a slash's foot or an apostrophe is shorter; two glyphs run
 * together are wider. Before this rule the glyph drawn in place of a dot was sized from the
 * dot's own ink (a 4 px "digit"): a substitution nobody could see, counted as a miss.
 */
export function wholeGlyphs(img: RgbImage, columns: [number, number][], box: Rect): [number, number][] {
  const heights = columns.map(([a, b]) => {
    const [top, bottom] = inkRows(img, a, b, box);
    return bottom - top + 1;
  });
  const widths = columns.map(([a, b]) => b - a + 1);
  const capitals = quantile(heights, 0.75);
  const width = quantile(widths, 0.5);
  return columns.filter((_, i) => heights[i]! >= 0.8 * capitals && widths[i]! <= 1.5 * width);
}

/** First and last rows with ink between columns x0 and x1 of the box. */
function inkRows(img: RgbImage, x0: number, x1: number, box: Rect): [number, number] {
  const ya = Math.max(0, Math.round(box.y));
  const yb = Math.min(img.height - 1, Math.round(box.y + box.h));
  const rows: number[] = [];
  for (let y = ya; y <= yb; y++) {
    for (let x = x0; x <= x1; x++) {
      const i = (y * img.width + x) * 3;
      if (0.299 * img.rgb[i]! + 0.587 * img.rgb[i + 1]! + 0.114 * img.rgb[i + 2]! < 100) {
        rows.push(y);
        break;
      }
    }
  }
  return rows.length ? [rows[0]!, rows[rows.length - 1]!] : [ya, yb];
}

/** Column runs holding dark pixels inside the box (one per glyph on a well-spaced value). */
export function glyphColumns(img: RgbImage, box: Rect): [number, number][] {
  const tones: number[] = [];
  const lum = (x: number, y: number) => {
    const i = (y * img.width + x) * 3;
    return 0.299 * img.rgb[i]! + 0.587 * img.rgb[i + 1]! + 0.114 * img.rgb[i + 2]!;
  };
  const xa = Math.max(0, Math.round(box.x));
  const xb = Math.min(img.width - 1, Math.round(box.x + box.w));
  const ya = Math.max(0, Math.round(box.y));
  const yb = Math.min(img.height - 1, Math.round(box.y + box.h));
  for (let y = ya; y <= yb; y++) for (let x = xa; x <= xb; x++) tones.push(lum(x, y));
  tones.sort((a, b) => a - b);
  const dark = (tones[Math.floor(0.05 * tones.length)]! + tones[Math.floor(0.7 * tones.length)]!) / 2;
  const runs: [number, number][] = [];
  let start = -1;
  for (let x = xa; x <= xb; x++) {
    let ink = false;
    for (let y = ya; y <= yb && !ink; y++) ink = lum(x, y) < dark;
    if (ink && start < 0) start = x;
    if (!ink && start >= 0) {
      if (x - start >= 2) runs.push([start, x - 1]);
      start = -1;
    }
  }
  return runs.filter(([a, b]) => b - a < box.h * 1.2);
}

function ringColour(img: RgbImage, box: Rect): [number, number, number] {
  const samples: number[][] = [[], [], []];
  const pad = Math.max(2, Math.round(box.h * 0.3));
  for (let y = Math.round(box.y - pad); y <= box.y + box.h + pad; y++) {
    for (let x = Math.round(box.x - pad); x <= box.x + box.w + pad; x++) {
      if (x < 0 || y < 0 || x >= img.width || y >= img.height) continue;
      const inside = x >= box.x && x <= box.x + box.w && y >= box.y && y <= box.y + box.h;
      if (inside) continue;
      const i = (y * img.width + x) * 3;
      for (let c = 0; c < 3; c++) samples[c]!.push(img.rgb[i + c]!);
    }
  }
  return samples.map((s) => {
    s.sort((a, b) => a - b);
    return s[Math.floor(0.7 * (s.length - 1))] ?? 235;
  }) as [number, number, number];
}

function fillRect(img: RgbImage, r: Rect, colour: [number, number, number]): RgbImage {
  const rgb = img.rgb.slice();
  for (let y = Math.max(0, Math.round(r.y)); y < Math.min(img.height, r.y + r.h); y++) {
    for (let x = Math.max(0, Math.round(r.x)); x < Math.min(img.width, r.x + r.w); x++) {
      rgb.set(colour, (y * img.width + x) * 3);
    }
  }
  return { rgb, width: img.width, height: img.height };
}
