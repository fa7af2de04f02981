import type { Point, Quad, RgbImage } from '../image/raster.ts';
import { upscaleForOcr } from '../image/upscale.ts';
import { noteDecision } from '../runtime/profile.ts';
import { upsideDownProbability } from './angle.ts';
import type { Decoded } from './ctc.ts';
import { detectText, type TextBox } from './detect.ts';
import { type RotatedRect, rectCorners } from './geometry.ts';
import {
  cropLine,
  type LineReading,
  MRZ_CHARSET,
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
  /**
   * True while the line's text is not recognised yet: an MRZ-like row whose PP-OCR reading was
   * deferred (ReadPageOptions.deferMrzRows). Its text fields are empty until PageReading's
   * readDeferred or settleDeferred fills them.
   */
  deferred?: boolean;
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
  /**
   * Recognises the deferred lines (those of `indexes`, or all), each once: what needs their
   * PP-OCR reading asks for it here. Lines already read or settled are left as they are.
   */
  readDeferred(indexes?: readonly number[]): Promise<void>;
  /** Gives deferred line `index` a reading made elsewhere (the MRZ model's reading of its row). */
  settleDeferred(index: number, reading: Decoded): void;
}

export interface ReadPageOptions {
  /** Detection working size (long side). 640 finds MRZ and VIZ text on a document filling a phone photo. */
  detectSide?: number;
  /** Only recognise lines at least this many px tall in the image (smaller text is decoration). */
  minLineHeight?: number;
  upscale?: boolean;
  /** Boxes already detected on this image at `detectSide` (reused instead of detecting again). */
  boxes?: TextBox[];
  /**
   * Leave the MRZ-like rows (mrzRowLike) unread: the MRZ model reads them (mrz/read.ts), and
   * their PP-OCR reading, the costliest of the page (two stretched 1×3×48×2265 runs on a
   * passport, ≈ 450 ms CPU), is only needed when the model's reading is not sure. Only for
   * callers that hand the page to mrzFromPage, which reads or settles every deferred line.
   */
  deferMrzRows?: boolean;
}

/**
 * Whether the MRZ rows' page reading is deferred (env IDV_DEFER_MRZ_OCR=0 turns it off, to
 * compare both on the same documents: `npm run bench -- ab`).
 */
export function mrzRowOcrDeferred(): boolean {
  return process.env.IDV_DEFER_MRZ_OCR !== '0';
}

/** The reading of a line not recognised yet (deferred): empty, so no reader takes it for text. */
const UNREAD: Decoded = { text: '', chars: [], confidence: 0 };

/** Lines used to vote on upside-down: the longest ones carry the most evidence. */
const ANGLE_VOTERS = 8;
/** Boxes longer than this ratio show the text direction; squarer ones (single letters) do not. */
const DIRECTIONAL_RATIO = 2.5;
/**
 * A mean classifier vote within this of 0.5 is unsure. The classifier squeezes a line to 192 px
 * and errs on rows whose crop also holds parts of their neighbours (an MRZ detected at 640 px,
 * its boxes as tall as the row pitch): three TD1 rows voted 0.6, 0.94 and 1.0 upside down on
 * an upright card, and the page was read turned, its MRZ not found.
 */
const UNSURE_VOTE = 0.2;
/** Longest lines the recogniser reads both ways up when the vote is unsure. */
const RECOGNISED_VOTERS = 2;

/**
 * Whether the lines read better turned by 180° than as they are (`angle` the page's reading
 * direction): the recogniser reads upright text as many characters with high probability and
 * turned text as few or doubtful ones, so the sum of character probabilities decides. Two
 * recognitions per line, paid only when the classifier's vote is unsure.
 */
async function readsBetterTurned(img: RgbImage, rects: RotatedRect[], angle: number): Promise<boolean> {
  const turned = normaliseAngle(angle + Math.PI);
  const crops = [
    ...rects.map((r) => cropLine(img, rectCorners(r))),
    ...rects.map((r) => cropLine(img, rectCorners(alignRect(r, turned)))),
  ];
  const read = await recognizeLines(crops);
  const evidence = (from: number) =>
    read
      .slice(from, from + rects.length)
      .reduce((s, r) => s + r.full.chars.reduce((n, c) => n + c.prob, 0), 0);
  return evidence(rects.length) > evidence(0);
}

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
    const flip =
      Math.abs(meanP - 0.5) < UNSURE_VOTE
        ? await readsBetterTurned(
            img,
            voters.slice(0, RECOGNISED_VOTERS).map((v) => v.r),
            angle,
          )
        : meanP > 0.5;
    if (flip) {
      angle = normaliseAngle(angle + Math.PI);
      rects = rects.map((r) => alignRect(r, angle));
    }
  }
  const quads = rects.map(rectCorners);
  const rowLike = quads.map((_, i) => mrzRowLike(rects, i, angle));
  const crop = (i: number) =>
    rowLike[i]
      ? cropLine(img, quads[i]!, REC_MAX_WIDTH * MRZ_STRETCH, MRZ_STRETCH)
      : cropLine(img, quads[i]!);
  const deferred = quads.map((_, i) => opts.deferMrzRows === true && rowLike[i]!);
  const now = quads.map((_, i) => i).filter((i) => !deferred[i]);
  const readNow = await recognizeLines(now.map(crop));
  const readings: (LineReading | null)[] = quads.map(() => null);
  now.forEach((i, k) => {
    readings[i] = readNow[k]!;
  });
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
      ...(r
        ? recognised(r)
        : { ...recognised({ full: UNREAD, mrz: UNREAD, mrzPosteriors: NO_POSTERIORS }), deferred: true }),
      x: px,
      y: py,
      length: rect.long * f,
      height: rect.short * f,
      left: px - (rect.long * f) / 2,
    };
  });
  // Each deferred line keeps the index of its crop (the lines are sorted below).
  const source = new Map<TextLine, number>();
  lines.forEach((l, i) => {
    if (l.deferred) source.set(l, i);
  });
  lines.sort((a, b) => a.y - b.y || a.x - b.x);
  const toImage = ([px, py]: Point): Point => {
    const x = px / f;
    const y = py / f;
    // Inverse rotation (by +angle), then back to input scale.
    const ix = x * Math.cos(angle) - y * Math.sin(angle) + cx;
    const iy = x * Math.sin(angle) + y * Math.cos(angle) + cy;
    return [ix * f, iy * f];
  };
  const page: PageReading = {
    lines,
    angle,
    confidence: pageConfidence(lines),
    detectMs,
    recognizeMs,
    toImage,
    async readDeferred(indexes) {
      const wanted = (indexes ?? lines.map((_, i) => i)).filter((i) => lines[i]?.deferred);
      if (wanted.length === 0) return;
      const t = performance.now();
      const read = await recognizeLines(wanted.map((i) => crop(source.get(lines[i]!)!)));
      wanted.forEach((i, k) => {
        const line = lines[i]!;
        Object.assign(line, recognised(read[k]!));
        delete line.deferred;
        noteDecision('mrz-row-ocr', 'read on demand');
      });
      page.confidence = pageConfidence(lines);
      page.recognizeMs += performance.now() - t;
    },
    settleDeferred(index, reading) {
      const line = lines[index];
      if (!line?.deferred) return;
      Object.assign(line, recognised({ full: reading, mrz: reading, mrzPosteriors: NO_POSTERIORS }));
      delete line.deferred;
      noteDecision('mrz-row-ocr', 'settled by the MRZ model');
      page.confidence = pageConfidence(lines);
    },
  };
  return page;
}

/**
 * Posteriors of a line PP-OCR did not read (a settled MRZ row): no steps, so no decoder reads
 * anything from them (the vote that would, model-read.ts, runs only on rows PP-OCR read).
 */
const NO_POSTERIORS: LineReading['mrzPosteriors'] = {
  probs: new Float32Array(0),
  steps: 0,
  classes: MRZ_CHARSET.length + 1,
};

/** A line's text fields from a recognition. */
function recognised(
  r: LineReading,
): Pick<TextLine, 'text' | 'confidence' | 'full' | 'mrz' | 'mrzPosteriors'> {
  return {
    text: r.full.text.trim(),
    confidence: r.full.confidence,
    full: r.full,
    mrz: r.mrz,
    mrzPosteriors: r.mrzPosteriors,
  };
}

/** Mean character confidence over the lines read, weighted by length. */
function pageConfidence(lines: TextLine[]): number {
  let wsum = 0;
  let csum = 0;
  for (const l of lines) {
    const n = l.full.chars.length;
    wsum += n;
    csum += l.confidence * n;
  }
  return wsum ? csum / wsum : 0;
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
