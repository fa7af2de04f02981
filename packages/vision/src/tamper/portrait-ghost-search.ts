import type { FaceBox } from '../faces/detect.ts';
import type { GreyImage } from '../image/grey.ts';
import type { Region } from './types.ts';

/**
 * Where the ghost image may be: the places on the page that look most like a small copy of the
 * portrait. Passports and cards print a faded, smaller copy of the holder's photo (the ghost);
 * BlazeFace seldom sees it on a whole page (a 50–60 px face at a fifth of its contrast, a
 * tenth of the detector's input), so it is searched here by normalised cross-correlation of the
 * main face, shrunk, over the page, and each candidate is then given to the face detector up
 * close (portrait-ghost.ts). Normalised correlation ignores the ghost's fading (a linear change
 * of tone) and finds a different person's face too (same framing, same dark eyes and hair), so
 * a swapped portrait still leads to the genuine ghost.
 */

export interface GhostCandidate {
  /** Box of the candidate face in the grey image's pixels. */
  x: number;
  y: number;
  w: number;
  h: number;
  /** Normalised correlation with the shrunk main face (−1..1). */
  ncc: number;
}

/** The main face is searched for at this width (px): enough for eyes and mouth, cheap to slide. */
const TEMPLATE_WIDTH = 28;
/**
 * Ghost widths searched, as shares of the main face's width: ghosts print at 35–60 % of the
 * portrait (faces/analyze.ts); 0.3–0.65 leaves a margin on both sides.
 */
const SCALES = [0.3, 0.37, 0.44, 0.52, 0.6, 0.66];
/** Candidates handed on: the detector confirms each one (≈ 10 ms), three bounds the cost. */
export const MAX_CANDIDATES = 3;

/**
 * Best places of a small copy of the main face on the page, best first, outside the main
 * portrait's own frame (a face box covers part of the photo: the frame is taken 0.6 face widths
 * to each side, 0.8 face heights above and 1.1 below, the head and shoulders of a portrait).
 */
export function ghostCandidates(grey: GreyImage, portrait: FaceBox, within?: Region): GhostCandidate[] {
  const f = portrait.w / TEMPLATE_WIDTH;
  if (f < 1) return [];
  const small = shrink(grey, f);
  // The table around the document and the page's own edge correlate with anything: only the
  // page is searched when its extent is known.
  const area = within
    ? {
        x0: Math.max(0, Math.floor(within.x / f)),
        y0: Math.max(0, Math.floor(within.y / f)),
        x1: Math.min(small.width, Math.ceil((within.x + within.w) / f)),
        y1: Math.min(small.height, Math.ceil((within.y + within.h) / f)),
      }
    : { x0: 0, y0: 0, x1: small.width, y1: small.height };
  const face = {
    x: Math.round(portrait.x / f),
    y: Math.round(portrait.y / f),
    w: TEMPLATE_WIDTH,
    h: Math.max(4, Math.round(portrait.h / f)),
  };
  const main = portraitFrame(portrait);
  const frame = { x0: main.x0 / f, x1: main.x1 / f, y0: main.y0 / f, y1: main.y1 / f };
  const integral = integrals(small);
  // The best few windows so far, kept apart from each other (a peak's neighbours are the same
  // place); a full list of every window would cost more than the correlation itself.
  const found: GhostCandidate[] = [];
  const consider = (c: GhostCandidate) => {
    const clash = found.findIndex((k) => overlaps(k, c));
    if (clash >= 0) {
      if (found[clash]!.ncc >= c.ncc) return;
      found.splice(clash, 1);
    } else if (found.length >= MAX_CANDIDATES && found[found.length - 1]!.ncc >= c.ncc) return;
    found.push(c);
    found.sort((a, b) => b.ncc - a.ncc);
    // A new peak may overlap several kept ones only if it replaced one; keep the list short.
    if (found.length > MAX_CANDIDATES) found.pop();
  };
  for (const s of SCALES) {
    const tw = Math.max(6, Math.round(face.w * s));
    const th = Math.max(6, Math.round(face.h * s));
    const tpl = template(small, face, tw, th);
    if (!tpl) continue;
    for (let y = area.y0; y + th <= area.y1; y++) {
      for (let x = area.x0; x + tw <= area.x1; x++) {
        if (x + tw > frame.x0 && x < frame.x1 && y + th > frame.y0 && y < frame.y1) continue;
        const ncc = correlate(small, integral, tpl, x, y, tw, th);
        if (ncc > (found.length >= MAX_CANDIDATES ? found[found.length - 1]!.ncc : 0))
          consider({ x, y, w: tw, h: th, ncc });
      }
    }
  }
  return found.map((c) => ({
    x: c.x * f,
    y: c.y * f,
    w: c.w * f,
    h: c.h * f,
    ncc: Math.round(c.ncc * 1000) / 1000,
  }));
}

/** The main portrait's photo around its face box (see ghostCandidates), page pixels. */
export function portraitFrame(face: FaceBox): { x0: number; x1: number; y0: number; y1: number } {
  return {
    x0: face.x - 0.6 * face.w,
    x1: face.x + 1.6 * face.w,
    y0: face.y - 0.8 * face.h,
    y1: face.y + 2.1 * face.h,
  };
}

function overlaps(a: GhostCandidate, b: GhostCandidate): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** Area-average shrink by factor `f` (≥ 1). */
function shrink(grey: GreyImage, f: number): GreyImage {
  const width = Math.max(1, Math.floor(grey.width / f));
  const height = Math.max(1, Math.floor(grey.height / f));
  const data = new Float32Array(width * height);
  for (let oy = 0; oy < height; oy++) {
    const y0 = Math.floor(oy * f);
    const y1 = Math.min(grey.height, Math.max(y0 + 1, Math.floor((oy + 1) * f)));
    for (let ox = 0; ox < width; ox++) {
      const x0 = Math.floor(ox * f);
      const x1 = Math.min(grey.width, Math.max(x0 + 1, Math.floor((ox + 1) * f)));
      let sum = 0;
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) sum += grey.data[y * grey.width + x]!;
      data[oy * width + ox] = sum / ((y1 - y0) * (x1 - x0));
    }
  }
  return { data, width, height };
}

interface Integrals {
  sum: Float64Array;
  sq: Float64Array;
}

function integrals(g: GreyImage): Integrals {
  const W = g.width + 1;
  const sum = new Float64Array(W * (g.height + 1));
  const sq = new Float64Array(W * (g.height + 1));
  for (let y = 0; y < g.height; y++) {
    let rs = 0;
    let rq = 0;
    for (let x = 0; x < g.width; x++) {
      const v = g.data[y * g.width + x]!;
      rs += v;
      rq += v * v;
      sum[(y + 1) * W + x + 1] = sum[y * W + x + 1]! + rs;
      sq[(y + 1) * W + x + 1] = sq[y * W + x + 1]! + rq;
    }
  }
  return { sum, sq };
}

/** The face region resampled to tw × th, zero-mean, unit norm (null when flat). */
function template(
  g: GreyImage,
  face: { x: number; y: number; w: number; h: number },
  tw: number,
  th: number,
): Float32Array | null {
  const t = new Float32Array(tw * th);
  let mean = 0;
  for (let y = 0; y < th; y++) {
    for (let x = 0; x < tw; x++) {
      const sx = Math.min(g.width - 1, Math.max(0, Math.floor(face.x + ((x + 0.5) * face.w) / tw)));
      const sy = Math.min(g.height - 1, Math.max(0, Math.floor(face.y + ((y + 0.5) * face.h) / th)));
      const v = g.data[sy * g.width + sx]!;
      t[y * tw + x] = v;
      mean += v;
    }
  }
  mean /= t.length;
  let norm = 0;
  for (let i = 0; i < t.length; i++) {
    t[i] = t[i]! - mean;
    norm += t[i]! ** 2;
  }
  if (norm < 1e-6) return null;
  const inv = 1 / Math.sqrt(norm);
  for (let i = 0; i < t.length; i++) t[i] = t[i]! * inv;
  return t;
}

/**
 * Normalised correlation of the unit template with the window at (x, y). A nearly flat window
 * (standard deviation under 2 grey levels: blank paper) scores 0: there is no picture there.
 */
function correlate(
  g: GreyImage,
  I: Integrals,
  tpl: Float32Array,
  x: number,
  y: number,
  tw: number,
  th: number,
): number {
  const W = g.width + 1;
  const a = y * W + x;
  const b = y * W + x + tw;
  const c = (y + th) * W + x;
  const d = (y + th) * W + x + tw;
  const n = tw * th;
  const s = I.sum[d]! - I.sum[b]! - I.sum[c]! + I.sum[a]!;
  const q = I.sq[d]! - I.sq[b]! - I.sq[c]! + I.sq[a]!;
  const variance = q / n - (s / n) ** 2;
  if (variance < 4) return 0;
  let dot = 0;
  for (let yy = 0; yy < th; yy++) {
    const row = (y + yy) * g.width + x;
    const trow = yy * tw;
    for (let xx = 0; xx < tw; xx++) dot += tpl[trow + xx]! * g.data[row + xx]!;
  }
  // The template has zero mean, so Σ t·(v − mean) = Σ t·v.
  return dot / Math.sqrt(variance * n);
}
