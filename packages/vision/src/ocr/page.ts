import type { Point, Quad, RgbImage } from '../image/raster.ts';
import { upscaleForOcr } from '../image/upscale.ts';
import { upsideDownProbability } from './angle.ts';
import type { Decoded } from './ctc.ts';
import { detectText, type TextBox } from './detect.ts';
import { type RotatedRect, rectCorners } from './geometry.ts';
import {
  cropLine,
  type LineReading,
  MRZ_LINE_ASPECT,
  MRZ_STRETCH,
  REC_MAX_WIDTH,
  recognizeLines,
} from './recognize.ts';

/**
 * Reads every text line of a photo: detect, find the reading direction of the page (documents
 * photographed at 90/180/270° or at an angle), recognise each line upright.
 */

export interface TextLine {
  /** Corners in image coordinates, in reading order (top-left of the text first). */
  quad: Quad;
  /** Unrestricted reading (any dictionary character). */
  text: string;
  confidence: number;
  /** Same line decoded with the MRZ alphabet only. */
  mrz: Decoded;
  full: Decoded;
  /** The recogniser's per-step probabilities over blank + A-Z 0-9 < (recognize.ts). */
  mrzPosteriors: LineReading['mrzPosteriors'];
  /** Centre, length and height in the upright page frame (rotated so that text reads left to right). */
  x: number;
  y: number;
  length: number;
  height: number;
  /** Left end of the line in the page frame. */
  left: number;
}

export interface PageReading {
  lines: TextLine[];
  /** Reading direction of the page text in the image, radians (0: upright, π: upside down). */
  angle: number;
  /** Mean character confidence over all lines, weighted by length (0 when nothing was read). */
  confidence: number;
  detectMs: number;
  recognizeMs: number;
  /** Maps a point of the page frame back to input image pixels. */
  toImage(p: Point): Point;
}

export interface ReadPageOptions {
  /** Detection working size (long side). 640 finds MRZ and VIZ text on a document filling a phone photo. */
  detectSide?: number;
  /** Only recognise lines at least this many px tall in the image (smaller text is decoration). */
  minLineHeight?: number;
  upscale?: boolean;
  /** Boxes already detected on this image at `detectSide` (reused instead of detecting again). */
  boxes?: TextBox[];
}

/** Lines used to vote on upside-down: the longest ones carry the most evidence. */
const ANGLE_VOTERS = 8;
/** Boxes longer than this ratio show the text direction; squarer ones (single letters) do not. */
const DIRECTIONAL_RATIO = 2.5;

export async function readPage(input: RgbImage, opts: ReadPageOptions = {}): Promise<PageReading> {
  const t0 = performance.now();
  // Small uploads are read from a Lanczos-upscaled copy when opts.upscale (MRZ re-reading does it).
  const { image: img, factor } = opts.upscale ? await upscaleForOcr(input) : { image: input, factor: 1 };
  const boxes =
    opts.boxes && factor === 1 ? opts.boxes : await detectText(img, { maxSide: opts.detectSide ?? 640 });
  const minH = (opts.minLineHeight ?? 8) * factor;
  const usable = boxes.filter((b) => b.rect.short >= minH);
  const detectMs = performance.now() - t0;

  const t1 = performance.now();
  let angle = dominantAngle(usable);
  let rects = usable.map((b) => alignRect(b.rect, angle));
  // 0° vs 180°: the classifier votes on the longest lines.
  const voters = [...rects]
    .map((r, i) => ({ r, i }))
    .sort((a, b) => b.r.long - a.r.long)
    .slice(0, ANGLE_VOTERS);
  if (voters.length > 0) {
    const p = await upsideDownProbability(voters.map((v) => cropLine(img, rectCorners(v.r), 192 * 4)));
    const meanP = p.reduce((s, x) => s + x, 0) / p.length;
    if (meanP > 0.5) {
      angle = normaliseAngle(angle + Math.PI);
      rects = rects.map((r) => alignRect(r, angle));
    }
  }
  const quads = rects.map(rectCorners);
  const readings = await recognizeLines(
    quads.map((q, i) =>
      mrzRowLike(rects, i, angle)
        ? cropLine(img, q, REC_MAX_WIDTH * MRZ_STRETCH, MRZ_STRETCH)
        : cropLine(img, q),
    ),
  );
  const recognizeMs = performance.now() - t1;

  // Page-frame coordinates are reported in the input image's scale (not the upscaled copy's).
  const cx = img.width / 2;
  const cy = img.height / 2;
  const f = 1 / factor;
  const c = Math.cos(-angle);
  const s = Math.sin(-angle);
  const toPage = ([x, y]: Point): Point => [
    ((x - cx) * c - (y - cy) * s) * f,
    ((x - cx) * s + (y - cy) * c) * f,
  ];
  const lines: TextLine[] = readings.map((r, i) => {
    const rect = rects[i]!;
    const [px, py] = toPage([rect.cx, rect.cy]);
    return {
      quad: quads[i]!.map(([x, y]) => [x * f, y * f]) as Quad,
      text: r.full.text.trim(),
      confidence: r.full.confidence,
      full: r.full,
      mrz: r.mrz,
      mrzPosteriors: r.mrzPosteriors,
      x: px,
      y: py,
      length: rect.long * f,
      height: rect.short * f,
      left: px - (rect.long * f) / 2,
    };
  });
  lines.sort((a, b) => a.y - b.y || a.x - b.x);
  let wsum = 0;
  let csum = 0;
  for (const l of lines) {
    const n = l.full.chars.length;
    wsum += n;
    csum += l.confidence * n;
  }
  const toImage = ([px, py]: Point): Point => {
    const x = px / f;
    const y = py / f;
    // Inverse rotation (by +angle), then back to input scale.
    const ix = x * Math.cos(angle) - y * Math.sin(angle) + cx;
    const iy = x * Math.sin(angle) + y * Math.cos(angle) + cy;
    return [ix * f, iy * f];
  };
  return { lines, angle, confidence: wsum ? csum / wsum : 0, detectMs, recognizeMs, toImage };
}

/**
 * Stacked rows: the partner row is at least this share of the row's length (an MRZ's rows are
 * equally long; a little less allows a row whose fillers the detector cut short).
 */
const STACK_LENGTH_SHARE = 0.5;
/** The rows' heights within this ratio (same font size). */
const STACK_HEIGHT_RATIO = 1.5;
/** Centres at most this many row heights apart across the page (MRZ row pitch is ~1.5–2 heights). */
const STACK_MAX_PITCH = 3;
/** The rows overlap along the page over at least this share of the shorter one (left-aligned). */
const STACK_MIN_OVERLAP = 0.5;

/**
 * Whether line `i` looks like a row of an MRZ: long and thin (MRZ_LINE_ASPECT), with another
 * such row stacked right above or below it. Only these are read stretched (MRZ_STRETCH): the
 * stretch is for the MRZ's narrow monospaced characters, and on any other long line (a header,
 * an address) it costs 1.6× the recognition time for nothing. `rects` are aligned to the page
 * direction `angle` (alignRect).
 */
export function mrzRowLike(rects: readonly RotatedRect[], i: number, angle: number): boolean {
  const r = rects[i]!;
  if (r.long < MRZ_LINE_ASPECT * r.short) return false;
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const along = (q: RotatedRect) => q.cx * c + q.cy * s;
  const across = (q: RotatedRect) => -q.cx * s + q.cy * c;
  return rects.some((q, j) => {
    if (j === i || q.long < STACK_LENGTH_SHARE * r.long) return false;
    if (Math.max(q.short, r.short) > STACK_HEIGHT_RATIO * Math.min(q.short, r.short)) return false;
    const pitch = Math.abs(across(q) - across(r));
    if (pitch > STACK_MAX_PITCH * r.short || pitch < r.short / 2) return false;
    const overlap =
      Math.min(along(q) + q.long / 2, along(r) + r.long / 2) -
      Math.max(along(q) - q.long / 2, along(r) - r.long / 2);
    return overlap >= STACK_MIN_OVERLAP * Math.min(q.long, r.long);
  });
}

/** Angle in (-π, π]. */
function normaliseAngle(a: number): number {
  let x = a;
  while (x > Math.PI) x -= 2 * Math.PI;
  while (x <= -Math.PI) x += 2 * Math.PI;
  return x;
}

/**
 * The page's text axis: the length-weighted mean orientation of elongated boxes, computed on
 * doubled angles because a line's axis has no direction (0° and 180° are the same axis).
 * Returned in (-π/2, π/2]; the upside-down decision comes after.
 */
export function dominantAngle(boxes: TextBox[]): number {
  let sx = 0;
  let sy = 0;
  for (const b of boxes) {
    if (b.rect.long < DIRECTIONAL_RATIO * b.rect.short) continue;
    sx += b.rect.long * Math.cos(2 * b.rect.angle);
    sy += b.rect.long * Math.sin(2 * b.rect.angle);
  }
  if (sx === 0 && sy === 0) return 0;
  return Math.atan2(sy, sx) / 2;
}

/**
 * Expresses a box along the page direction `angle`: a box whose long axis is across the page
 * (a short word or single letter) is turned so that its length runs along the text, and the
 * direction is flipped when it points against the page's reading direction.
 */
export function alignRect(r: RotatedRect, angle: number): RotatedRect {
  const diff = normaliseAngle(r.angle - angle);
  const absDiff = Math.abs(diff);
  // Axis within 45° of the page axis (either direction): keep its own tilt.
  if (absDiff <= Math.PI / 4 || absDiff >= (3 * Math.PI) / 4) {
    const along = absDiff <= Math.PI / 4 ? r.angle : r.angle + Math.PI;
    return { ...r, angle: normaliseAngle(along) };
  }
  // Across the page: swap the axes so the text runs along the page direction.
  return { ...r, long: r.short, short: r.long, angle };
}
