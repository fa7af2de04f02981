import type { FaceBox } from '../faces/detect.ts';
import { type GreyImage, toGrey } from '../image/grey.ts';
import type { NormalizedImage } from '../image/normalize.ts';
import { type Box, clampBox } from '../image/raster.ts';
import { quantile } from '../image/stats.ts';
import { CLIPPED_WHITE } from './capture.ts';
import { highPass } from './pixels.ts';

/**
 * `portrait_edge`: a portrait pasted over another (physically or digitally) leaves a
 * *straight, continuous* step along its sides, and the photo's texture stops dead there: the
 * security print (guilloche, microtext) that runs over a genuine portrait's edges is missing
 * inside the pasted one, or the pasted photo has its own, different noise.
 *
 * For the left, right and top sides of the portrait (located from the face box) we search the
 * straightest edge line: the share of positions along it where the colour step across the
 * line is at least STEP levels. A side "looks cut" when that share is high over
 * the whole side AND the fine texture (high-pass median) differs strongly between thin strips
 * on either side of the line. Both conditions must hold on at least two sides: a printed
 * photo frame alone (many passports have one) gives straight edges but, with overprint or
 * matching paper texture, no texture break.
 */

/** Colour step (max channel difference) across the line: visible, above JPEG ringing and paper noise. */
const STEP = 10;
/** Share of positions along a side that must carry the same-sign step. */
export const EDGE_MIN_COVERAGE = 0.85;
/** Texture ratio (larger / smaller high-pass median) that counts as a break. */
export const TEXTURE_BREAK_RATIO = 2.5;
/**
 * A strip this much clipped white shows no texture of its own, so it cannot show a break: an
 * overexposed capture (a document on a dark table, the phone metering on the table) clips the
 * paper around a genuine photo to flat white, whose high-pass is 0 against the photo's, and
 * every side read as cut (on the generated tuning draw `s28-tune` photographed 25–60 % too
 * bright, 13 of 75 genuine captures failed so, texture ratios 2.6–4 on all three sides; the
 * strips outside were wholly clipped). A pasted photo is found by the print it hides, which a
 * clipped strip has lost too. Half: the strip is mostly white, not a photo's white collar or a
 * highlight crossing it.
 */
export const MAX_CLIPPED_SHARE = 0.5;

export interface SideMeasure {
  side: 'left' | 'right' | 'top';
  coverage: number;
  textureRatio: number;
}

/**
 * Best straight line for one side: position and coverage. At each candidate position `at`, the
 * colour step (max channel difference, pasted edges are often chromatic) between the pixels
 * 2 px before and 2 px after the line, at every whole position `s` along the span (both clamped
 * to the photo).
 */
function bestLine(
  image: NormalizedImage,
  vertical: boolean,
  from: number,
  to: number,
  spanFrom: number,
  spanTo: number,
): { at: number; coverage: number } {
  let best = { at: from, coverage: 0 };
  const d = 2;
  const { rgb, width, height } = image;
  const clampX = (v: number) => Math.min(width - 1, Math.max(0, v));
  const clampY = (v: number) => Math.min(height - 1, Math.max(0, v));
  const s0 = Math.round(spanFrom);
  // Pixel offsets (in rgb) of the span positions, computed once per side: the span is the same
  // for every candidate line.
  const spanLength = Math.max(0, Math.floor(spanTo) - s0 + 1);
  const spanOffsets = new Int32Array(spanLength);
  for (let k = 0; k < spanLength; k++)
    spanOffsets[k] = vertical ? clampY(s0 + k) * width * 3 : clampX(s0 + k) * 3;
  for (let at = Math.round(from); at <= to; at++) {
    // The two sides of the line, as rgb offsets across it.
    const a = vertical ? clampX(at - d) * 3 : clampY(at - d) * width * 3;
    const b = vertical ? clampX(at + d) * 3 : clampY(at + d) * width * 3;
    let hits = 0;
    for (let k = 0; k < spanLength; k++) {
      const i = spanOffsets[k]! + a;
      const j = spanOffsets[k]! + b;
      const step = Math.max(
        Math.abs(rgb[i]! - rgb[j]!),
        Math.abs(rgb[i + 1]! - rgb[j + 1]!),
        Math.abs(rgb[i + 2]! - rgb[j + 2]!),
      );
      if (step >= STEP) hits++;
    }
    const coverage = spanLength ? hits / spanLength : 0;
    if (coverage > best.coverage) best = { at, coverage };
  }
  return best;
}

/** Share of a strip's pixels (clamped to the image) clipped white (capture.ts's level, on grey). */
function clippedShare(g: GreyImage, box: Box): number {
  const { x: x0, y: y0, w, h } = clampBox(box, g.width, g.height);
  let clipped = 0;
  for (let y = y0; y < y0 + h; y++)
    for (let x = x0; x < x0 + w; x++) if (g.data[y * g.width + x]! >= CLIPPED_WHITE) clipped++;
  return w * h ? clipped / (w * h) : 0;
}

/** 1 (no break) when either strip is clipped white (MAX_CLIPPED_SHARE). */
function textureRatio(
  g: GreyImage,
  inside: { x: number; y: number; w: number; h: number },
  outside: typeof inside,
): number {
  if (clippedShare(g, inside) >= MAX_CLIPPED_SHARE || clippedShare(g, outside) >= MAX_CLIPPED_SHARE) return 1;
  const a = quantile(highPass(g, inside), 0.5) + 1;
  const b = quantile(highPass(g, outside), 0.5) + 1;
  return Math.max(a, b) / Math.min(a, b);
}

export function measurePortraitEdges(
  image: NormalizedImage,
  face: FaceBox,
  grey = toGrey(image),
): SideMeasure[] {
  const { x, y, w, h } = face;
  const strip = Math.max(3, Math.round(0.12 * w));
  // Spans stay within the head's height / width: a portrait's frame always covers those.
  const vSpan: [number, number] = [y - 0.1 * h, y + h];
  const hSpan: [number, number] = [x - 0.1 * w, x + 1.1 * w];
  const out: SideMeasure[] = [];
  const left = bestLine(image, true, Math.max(2, x - 0.9 * w), x - 0.05 * w, ...vSpan);
  out.push({
    side: 'left',
    coverage: left.coverage,
    textureRatio: textureRatio(
      grey,
      { x: left.at + 3, y: vSpan[0], w: strip, h: vSpan[1] - vSpan[0] },
      { x: left.at - 3 - strip, y: vSpan[0], w: strip, h: vSpan[1] - vSpan[0] },
    ),
  });
  const right = bestLine(image, true, x + 1.05 * w, Math.min(grey.width - 3, x + 1.9 * w), ...vSpan);
  out.push({
    side: 'right',
    coverage: right.coverage,
    textureRatio: textureRatio(
      grey,
      { x: right.at - 3 - strip, y: vSpan[0], w: strip, h: vSpan[1] - vSpan[0] },
      { x: right.at + 3, y: vSpan[0], w: strip, h: vSpan[1] - vSpan[0] },
    ),
  });
  const top = bestLine(image, false, Math.max(2, y - 0.9 * h), y - 0.05 * h, ...hSpan);
  out.push({
    side: 'top',
    coverage: top.coverage,
    textureRatio: textureRatio(
      grey,
      { x: hSpan[0], y: top.at + 3, w: hSpan[1] - hSpan[0], h: strip },
      { x: hSpan[0], y: top.at - 3 - strip, w: hSpan[1] - hSpan[0], h: strip },
    ),
  });
  return out;
}

/**
 * Sides that look cut: straight edge over the whole side and a texture break across it.
 * The sign needs all three sides (left, right, top): on the fixture documents, genuine printed
 * portraits with a frame show a texture break on one or two sides (plain photo background
 * against guilloche), so fewer sides would raise false alarms on bona fide documents.
 */
export const MIN_CUT_SIDES = 3;

export function cutSides(measures: SideMeasure[]): SideMeasure[] {
  return measures.filter((m) => m.coverage >= EDGE_MIN_COVERAGE && m.textureRatio >= TEXTURE_BREAK_RATIO);
}
