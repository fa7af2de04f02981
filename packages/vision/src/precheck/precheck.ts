import type { PrecheckIssue, PrecheckRequest } from '@idv/core';
import type { NormalizedImage } from '../image/normalize.ts';
import { detectText, type TextBox } from '../ocr/detect.ts';
import { rectCorners } from '../ocr/geometry.ts';
import { alignRect, dominantAngle } from '../ocr/page.ts';
import { cropLine, recognizeLines } from '../ocr/recognize.ts';
import { glareShare } from '../quality/glare.ts';
import { assessSharpness } from '../quality/sharpness.ts';

/**
 * Capture advice before the user confirms a photo, cheap enough for every capture: one text
 * detection at a small size, recognition of at most three candidate MRZ lines, and pixel
 * statistics. The most basic problem is reported first.
 */

/** What the capture step expects of the photo (the analyzer contract's pre-check request). */
export type PrecheckOptions = Omit<PrecheckRequest, 'bytes'>;

/** Detection working size: a document filling the frame still shows its field lines at 480 px. */
const PRECHECK_SIDE = 480;
/** Fewer text lines than this: not a document (a data page or card side has a dozen or more). */
const MIN_TEXT_LINES = 4;
/** A text line closer than this share of the image size to an edge is cut by the frame. */
const EDGE_MARGIN = 0.006;
/** MRZ-like line: at least this long relative to its height (a 30-character line is ~20:1). */
const MRZ_ASPECT = 14;
/** An MRZ line shorter than this share of the longest one is partly hidden. */
const MRZ_MIN_LENGTH_SHARE = 0.8;
/** Burnt-out share of the worst tile above which glare is reported (a reflection covers a patch). */
const GLARE_SHARE = 0.35;
/** Mean recognition confidence of the MRZ lines below which the photo is illegible. */
const MIN_MRZ_CONFIDENCE = 0.75;

export async function precheck(
  img: NormalizedImage,
  opts: PrecheckOptions = {},
): Promise<{ issue: PrecheckIssue | null }> {
  const sharp = assessSharpness(img);
  const boxes = await detectText(img, { maxSide: PRECHECK_SIDE });
  const text = boxes.filter((b) => b.rect.long >= 2 * b.rect.short);
  if (text.length < MIN_TEXT_LINES) return { issue: sharp.tooBlurry ? 'illegible' : 'not_a_document' };

  const mrz = await mrzLines(img, text);
  const expectsMrz = expectedMrz(opts);
  if (expectsMrz === true && mrz.lines.length === 0) return { issue: 'wrong_side' };
  if (expectsMrz === false && mrz.lines.length > 0) return { issue: 'wrong_side' };

  if (touchesEdge(text, img)) return { issue: 'cut_off' };
  if (mrz.lines.length > 0) {
    const longest = Math.max(...mrz.lines.map((b) => b.rect.long));
    if (mrz.lines.some((b) => b.rect.long < MRZ_MIN_LENGTH_SHARE * longest)) return { issue: 'obstructed' };
  }
  if (glareShare(img, text) > GLARE_SHARE) return { issue: 'glare' };
  if (sharp.tooBlurry || (mrz.lines.length > 0 && mrz.confidence < MIN_MRZ_CONFIDENCE))
    return { issue: 'illegible' };
  return { issue: null };
}

/** Whether this side of this document carries an MRZ; undefined when not told. */
function expectedMrz(opts: PrecheckOptions): boolean | undefined {
  if (opts.documentType === 'cni_old') return false;
  if (opts.documentType === 'passport') return true;
  if (opts.documentType === 'cni' && opts.side) return opts.side === 'back';
  return undefined;
}

/**
 * Candidate MRZ lines: the longest, thinnest boxes, read with the MRZ alphabet; a line counts
 * when it reads as 20+ characters with fillers or digits.
 */
async function mrzLines(
  img: NormalizedImage,
  boxes: TextBox[],
): Promise<{ lines: TextBox[]; confidence: number }> {
  const angle = dominantAngle(boxes);
  const candidates = boxes
    .filter((b) => b.rect.long >= MRZ_ASPECT * b.rect.short)
    .sort((a, b) => b.rect.long - a.rect.long)
    .slice(0, 3);
  if (candidates.length === 0) return { lines: [], confidence: 0 };
  const rects = candidates.map((b) => alignRect(b.rect, angle));
  const readings = await recognizeLines(rects.map((r) => cropLine(img, rectCorners(r))));
  // Upside-down photos read as garbage one way: try the other way for lines that failed.
  const lines: TextBox[] = [];
  let conf = 0;
  readings.forEach((r, i) => {
    const t = r.mrz.text;
    const digits = (t.match(/[0-9]/g) ?? []).length;
    if (t.length >= 20 && (t.includes('<<') || digits >= 8)) {
      lines.push(candidates[i]!);
      conf += r.mrz.confidence;
    }
  });
  if (lines.length === 0) {
    const flipped = await recognizeLines(
      rects.map((r) => cropLine(img, rectCorners({ ...r, angle: r.angle + Math.PI }))),
    );
    flipped.forEach((r, i) => {
      if (r.mrz.text.length >= 20 && r.mrz.text.includes('<<')) {
        lines.push(candidates[i]!);
        conf += r.mrz.confidence;
      }
    });
  }
  return { lines, confidence: lines.length ? conf / lines.length : 0 };
}

function touchesEdge(boxes: TextBox[], img: NormalizedImage): boolean {
  const mx = EDGE_MARGIN * img.width;
  const my = EDGE_MARGIN * img.height;
  return boxes.some((b) =>
    b.quad.some(([x, y]) => x < mx || y < my || x > img.width - 1 - mx || y > img.height - 1 - my),
  );
}
