import type { NormalizedImage } from '../image/normalize.ts';
import type { Region } from './types.ts';

/**
 * Colour misregistration: a colour copier or a laser printer lays its colour planes down one
 * after the other, and they land a fraction of a pixel to a pixel apart. The whole page then
 * carries the same shift between its red and green (or blue and green) planes: dark text edges
 * get a coloured fringe on one side, pointing the same way everywhere. A phone's own colour
 * fringes (lateral chromatic aberration) point away from the optical centre instead (a
 * magnification of one plane against another), and a genuine document's print is registered
 * far tighter than a copier's.
 *
 * Measure: per tile of the document window, the shift (x, y) of the red and of the blue plane
 * against the green one (one Lucas–Kanade step on the tile's gradients, after fitting the plane
 * to green by gain and offset so that coloured print does not read as a shift); then over the
 * tiles a least-squares fit of each shift as a translation plus a magnification about the image
 * centre. The translation is the copier's registration error; the magnification (the lens's) is
 * left out. The result is the larger translation of the two planes, in working pixels.
 *
 * Measured, not raised as a sign: on tuning-side generated images (export-training.ts, 40
 * sources; docs/benchmarks.md, issue 14, colour copies) bona fide phone captures
 * reach 0.107 px (a drawn colour card), clean files 0.049, while colour copies have a median of
 * 0.112 (p10 0.019: the corpus's copier shifts a plane by a whole pixel only two times in three,
 * and the shift is scaled by the saturation the copy keeps). Toner speckle (toner-speckle.ts)
 * separates the same images far better; `scripts/eval/copy-cues.ts` prints both.
 */

/** Tiles per side of the window: enough tiles to separate a translation from a magnification. */
const TILES = 5;
/**
 * A tile with little edge energy (blank paper, a flat tint) gives a shift from noise alone: its
 * weight is its gradient energy, and a tile below this mean squared gradient (grey levels² per
 * pixel; sharp text measures hundreds) is left out.
 */
const MIN_TILE_ENERGY = 20;
/** A tile's shift beyond this is not a registration error (the LK step is linear up to ~1 px). */
const MAX_TILE_SHIFT = 2;

export interface Misregistration {
  /** How far the red plane's print lies from the green one's (x right, y down), working px. */
  red: [number, number];
  /** The same for the blue plane. */
  blue: [number, number];
  /** The larger of the two translations' lengths. */
  shift: number;
  /** Tiles that carried enough edges to be measured. */
  tiles: number;
}

interface TileShift {
  cx: number;
  cy: number;
  weight: number;
  red: [number, number];
  blue: [number, number];
}

/** The planes' registration over `region`; null when too few tiles carry edges. */
export function measureMisregistration(image: NormalizedImage, region: Region): Misregistration | null {
  const x0 = Math.max(1, Math.floor(region.x));
  const y0 = Math.max(1, Math.floor(region.y));
  const x1 = Math.min(image.width - 1, Math.floor(region.x + region.w));
  const y1 = Math.min(image.height - 1, Math.floor(region.y + region.h));
  if (x1 - x0 < 10 * TILES || y1 - y0 < 10 * TILES) return null;
  const shifts: TileShift[] = [];
  for (let ty = 0; ty < TILES; ty++) {
    for (let tx = 0; tx < TILES; tx++) {
      const t = tileShift(
        image,
        x0 + Math.floor(((x1 - x0) * tx) / TILES),
        y0 + Math.floor(((y1 - y0) * ty) / TILES),
        x0 + Math.floor(((x1 - x0) * (tx + 1)) / TILES),
        y0 + Math.floor(((y1 - y0) * (ty + 1)) / TILES),
      );
      if (t) shifts.push(t);
    }
  }
  if (shifts.length < 6) return null;
  const red = translation(shifts, 'red', image.width / 2, image.height / 2);
  const blue = translation(shifts, 'blue', image.width / 2, image.height / 2);
  if (!red || !blue) return null;
  return { red, blue, shift: Math.max(Math.hypot(...red), Math.hypot(...blue)), tiles: shifts.length };
}

/**
 * One tile: each of red and blue fitted to green (gain a, offset b by least squares), then the
 * shift s solving  P − (a·G + b) ≈ a·(s · ∇G)  in the least-squares sense. Every other row and
 * column is used (the gradients still use both neighbours): a quarter of the work.
 */
function tileShift(image: NormalizedImage, xa: number, ya: number, xb: number, yb: number): TileShift | null {
  const { rgb, width } = image;
  // Sums for the gain fits (each plane against green) and for the shift's normal equations.
  let n = 0;
  let sg = 0;
  let sgg = 0;
  let sr = 0;
  let srg = 0;
  let sb = 0;
  let sbg = 0;
  for (let y = ya; y < yb; y += 2) {
    for (let x = xa; x < xb; x += 2) {
      const i = (y * width + x) * 3;
      const g = rgb[i + 1]!;
      n++;
      sg += g;
      sgg += g * g;
      sr += rgb[i]!;
      srg += rgb[i]! * g;
      sb += rgb[i + 2]!;
      sbg += rgb[i + 2]! * g;
    }
  }
  const varG = sgg / n - (sg / n) ** 2;
  if (varG < 1) return null;
  const aR = (srg / n - (sr / n) * (sg / n)) / varG;
  const bR = sr / n - aR * (sg / n);
  const aB = (sbg / n - (sb / n) * (sg / n)) / varG;
  const bB = sb / n - aB * (sg / n);
  let gxx = 0;
  let gxy = 0;
  let gyy = 0;
  let rx = 0;
  let ry = 0;
  let bx = 0;
  let by = 0;
  for (let y = ya; y < yb; y += 2) {
    for (let x = xa; x < xb; x += 2) {
      const i = (y * width + x) * 3;
      const gx = (rgb[i + 4]! - rgb[i - 2]!) / 2;
      const gy = (rgb[i + 1 + width * 3]! - rgb[i + 1 - width * 3]!) / 2;
      const g = rgb[i + 1]!;
      const dr = rgb[i]! - (aR * g + bR);
      const db = rgb[i + 2]! - (aB * g + bB);
      gxx += gx * gx;
      gxy += gx * gy;
      gyy += gy * gy;
      rx += dr * gx;
      ry += dr * gy;
      bx += db * gx;
      by += db * gy;
    }
  }
  if ((gxx + gyy) / n < MIN_TILE_ENERGY) return null;
  const det = gxx * gyy - gxy * gxy;
  if (det <= 1e-9 * (gxx + gyy) ** 2) return null;
  const solve = (px: number, py: number, a: number): [number, number] | null => {
    // A plane with almost no gain against green (a flat colour, no text in it) has no shift.
    if (Math.abs(a) < 0.2) return null;
    // The LK step gives s with P(x) ≈ G(x + s); the plane's print lies at −s (moved by −s).
    return [-(gyy * px - gxy * py) / det / a, -(gxx * py - gxy * px) / det / a];
  };
  const red = solve(rx, ry, aR);
  const blue = solve(bx, by, aB);
  if (!red || !blue) return null;
  if (Math.max(...red.map(Math.abs), ...blue.map(Math.abs)) > MAX_TILE_SHIFT) return null;
  return { cx: (xa + xb) / 2, cy: (ya + yb) / 2, weight: (gxx + gyy) / n, red, blue };
}

/**
 * Weighted least squares over the tiles: s(tile) = t + m·(c − centre), for x and y together
 * (unknowns t_x, t_y, m). Returns t, the part of the shift that is the same over the page.
 */
function translation(
  tiles: TileShift[],
  plane: 'red' | 'blue',
  cx: number,
  cy: number,
): [number, number] | null {
  // Normal equations of the 3-unknown system; rows (1, 0, dx) → s_x and (0, 1, dy) → s_y.
  let a11 = 0;
  let a13 = 0;
  let a22 = 0;
  let a23 = 0;
  let a33 = 0;
  let b1 = 0;
  let b2 = 0;
  let b3 = 0;
  const scale = Math.max(cx, cy);
  for (const t of tiles) {
    const w = t.weight;
    const dx = (t.cx - cx) / scale;
    const dy = (t.cy - cy) / scale;
    const [sx, sy] = t[plane];
    a11 += w;
    a13 += w * dx;
    a22 += w;
    a23 += w * dy;
    a33 += w * (dx * dx + dy * dy);
    b1 += w * sx;
    b2 += w * sy;
    b3 += w * (dx * sx + dy * sy);
  }
  const m = solve3(
    [
      [a11, 0, a13],
      [0, a22, a23],
      [a13, a23, a33],
    ],
    [b1, b2, b3],
  );
  return m ? [m[0], m[1]] : null;
}

/** A 3 × 3 linear system by Cramer's rule; null when singular. */
function solve3(a: number[][], b: number[]): [number, number, number] | null {
  const d3 = (m: number[][]) =>
    m[0]![0]! * (m[1]![1]! * m[2]![2]! - m[1]![2]! * m[2]![1]!) -
    m[0]![1]! * (m[1]![0]! * m[2]![2]! - m[1]![2]! * m[2]![0]!) +
    m[0]![2]! * (m[1]![0]! * m[2]![1]! - m[1]![1]! * m[2]![0]!);
  const det = d3(a);
  if (Math.abs(det) < 1e-12) return null;
  const col = (k: number) => d3(a.map((row, i) => row.map((v, j) => (j === k ? b[i]! : v)))) / det;
  return [col(0), col(1), col(2)];
}
