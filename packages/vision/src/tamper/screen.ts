import sharp from 'sharp';
import { luma } from '../image/grey.ts';
import { DECODE_LIMITS, type NormalizedImage } from '../image/normalize.ts';
import { quantile } from '../image/stats.ts';
import { profiled } from '../runtime/profile.ts';
import type { TamperImages } from './types.ts';

/**
 * `photo_of_screen`: a photo of a document shown on a screen carries the screen's pixel grid.
 * Sampled by the camera it shows up as a strictly periodic pattern — the grid itself or its
 * moiré — and, because the sub-pixels are red, green and blue stripes, as periodic *colour*
 * fringes. Printed documents and paper have no such sharp periodicity at high frequency.
 *
 * Measure: in several 128×128 tiles, the power spectrum (Hann window) of the luminance and of
 * the red−green opponent plane; inside the high-frequency annulus (periods from 2 to 6 px) the
 * ratio of the strongest peak to the median power of that annulus. A periodic grid makes an
 * isolated peak hundreds of times above the median; noise, text and guilloche stay within a
 * few tens. The score is a low quantile (20 %) of the ratios over 9 tiles, so a few tiles of
 * regular text or printed halftone cannot trigger alone — a screen grid covers the whole picture.
 *
 * Two scales: the working copy (≤ 1600 px) and, when the upload is larger, the upload's own
 * pixels. A phone or a 4K video frame resolves an LCD's pixels as a grid of 2–4 camera pixels;
 * the working copy, 2–2.5× smaller, averages that grid away, while a screen seen from further
 * (grid finer than 2 camera pixels) or a coarse grid (over 6) falls into the annulus only after
 * the reduction. The larger of the two ratios counts.
 */

/**
 * Side of the tiles whose spectra are searched: 128 px holds 32–64 periods of a 2–4 px screen
 * grid, a sharp peak, and is a power of two for the radix-2 FFT.
 */
const TILE = 128;
/**
 * Score from which the picture is periodic. Phone photos of paper documents measure 1–20;
 * flatbed scans and specimen renders up to ~900 (printing halftone is periodic too); a camera
 * pointed at an LCD grid measures thousands to hundreds of thousands (synthetic test: 10⁴+).
 */
export const SCREEN_PEAK_RATIO = 1500;
/**
 * Strength 1: four times the bar and over six times the most periodic paper (~900), still under
 * the thousands a screen's grid gives: high severity (a fail) from half way, about 3,750.
 */
const SCREEN_UNMISTAKABLE_RATIO = 6000;

const twiddleCache = new Map<number, [Float64Array, Float64Array]>();

/** cos and sin of −2πk/len for k < len/2, per stage length (a few sizes, kept for the process). */
function twiddles(len: number): [Float64Array, Float64Array] {
  let t = twiddleCache.get(len);
  if (!t) {
    const ang = (-2 * Math.PI) / len;
    const cos = new Float64Array(len / 2);
    const sin = new Float64Array(len / 2);
    for (let k = 0; k < len / 2; k++) {
      cos[k] = Math.cos(ang * k);
      sin[k] = Math.sin(ang * k);
    }
    t = [cos, sin];
    twiddleCache.set(len, t);
  }
  return t;
}

/**
 * The FFT (radix 2, in place) of every column of a TILE×TILE tile at once: each butterfly
 * applied to two whole rows, element by element. The same operations on the same values as a
 * transform of each column on its own (so the same spectrum, bit for bit), but along
 * contiguous rows with each twiddle factor loaded once per row pair: a 128-point transform at
 * a time spent most of its time in loop overhead, and gathering each column was slower still.
 */
function fftColumns(re: Float64Array, im: Float64Array): void {
  const n = TILE;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      const { rowRe, rowIm } = work;
      rowRe.set(re.subarray(i * TILE, (i + 1) * TILE));
      rowIm.set(im.subarray(i * TILE, (i + 1) * TILE));
      re.copyWithin(i * TILE, j * TILE, (j + 1) * TILE);
      im.copyWithin(i * TILE, j * TILE, (j + 1) * TILE);
      re.set(rowRe, j * TILE);
      im.set(rowIm, j * TILE);
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const [cos, sin] = twiddles(len);
    const half = len / 2;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < half; k++) {
        const wr = cos[k]!;
        const wi = sin[k]!;
        const rowA = (i + k) * TILE;
        const rowB = (i + k + half) * TILE;
        for (let x = 0; x < TILE; x++) {
          const a = rowA + x;
          const b = rowB + x;
          const xr = re[b]! * wr - im[b]! * wi;
          const xi = re[b]! * wi + im[b]! * wr;
          re[b] = re[a]! - xr;
          im[b] = im[a]! - xi;
          re[a] = re[a]! + xr;
          im[a] = im[a]! + xi;
        }
      }
    }
  }
}

/** Hann window of a tile side (the same for every tile). */
const HANN = Float64Array.from(
  { length: TILE },
  (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (TILE - 1)),
);

/**
 * The bins of the high-frequency annulus (periods 2–6 px), as flat indices into a TILE×TILE
 * spectrum, and for each its mirror bin (−u, −v): the two real planes share one complex
 * transform (below), and each plane's spectrum at a bin is read from the bin and its mirror.
 */
const ANNULUS = (() => {
  const bins: number[] = [];
  const mirrors: number[] = [];
  const minR = TILE / 6;
  const maxR = TILE / 2;
  for (let v = 0; v < TILE; v++) {
    const fy = v <= TILE / 2 ? v : v - TILE;
    for (let u = 0; u < TILE; u++) {
      const fx = u <= TILE / 2 ? u : u - TILE;
      const r = Math.hypot(fx, fy);
      if (r < minR || r > maxR) continue;
      bins.push(v * TILE + u);
      mirrors.push(((TILE - v) % TILE) * TILE + ((TILE - u) % TILE));
    }
  }
  return { bins: Int32Array.from(bins), mirrors: Int32Array.from(mirrors) };
})();

/**
 * Work buffers of the tile transform, allocated once: the tiles are measured one after the
 * other on one thread, and fresh 128×128 float arrays per tile were a good part of the step.
 */
const work = {
  re: new Float64Array(TILE * TILE),
  im: new Float64Array(TILE * TILE),
  rowRe: new Float64Array(TILE),
  rowIm: new Float64Array(TILE),
  lumPower: new Float64Array(ANNULUS.bins.length),
  chromaPower: new Float64Array(ANNULUS.bins.length),
};

/** Transposes the TILE×TILE tile in place. */
function transpose(a: Float64Array): void {
  for (let y = 0; y < TILE; y++) {
    for (let x = y + 1; x < TILE; x++) {
      const t = a[y * TILE + x]!;
      a[y * TILE + x] = a[x * TILE + y]!;
      a[x * TILE + y] = t;
    }
  }
}

/**
 * In-place 2-D FFT of a tile given transposed in work.re + i·work.im (row y of the tile in
 * column y): the column transforms there are the tile's row transforms; transposed back, the
 * column transforms finish the 2-D transform, in the tile's own orientation.
 */
function fft2dOfTransposed(): void {
  const { re, im } = work;
  fftColumns(re, im);
  transpose(re);
  transpose(im);
  fftColumns(re, im);
}

/**
 * The 2-D spectrum of a TILE×TILE tile (row-major re + i·im, transformed in place) by the
 * path the screen measure takes (transposed, columns at once): exported for the test that
 * holds it to the plain row-then-column transform.
 */
export function tileSpectrum(re: Float64Array, im: Float64Array): void {
  for (let y = 0; y < TILE; y++) {
    for (let x = 0; x < TILE; x++) {
      work.re[x * TILE + y] = re[y * TILE + x]!;
      work.im[x * TILE + y] = im[y * TILE + x]!;
    }
  }
  fft2dOfTransposed();
  re.set(work.re);
  im.set(work.im);
}

/**
 * Peak ratios of the luminance and the red−green planes of one tile (row-major TILE×TILE each),
 * Hann-windowed, mean removed. Both planes are real, so they go through one complex transform
 * Z = L + i·C, and L̂(k) = (Z(k) + conj Z(−k)) / 2, Ĉ(k) = (Z(k) − conj Z(−k)) / 2i: half the
 * transforms of one per plane, the same spectra.
 */
function tilePeakRatios(lum: Float64Array, chroma: Float64Array): [number, number] {
  let ml = 0;
  let mc = 0;
  for (let i = 0; i < lum.length; i++) {
    ml += lum[i]!;
    mc += chroma[i]!;
  }
  ml /= lum.length;
  mc /= chroma.length;
  const { re, im, lumPower, chromaPower } = work;
  // Stored transposed (fft2dOfTransposed); the same windowed values.
  for (let y = 0; y < TILE; y++) {
    const hy = HANN[y]!;
    for (let x = 0; x < TILE; x++) {
      const i = y * TILE + x;
      const t = x * TILE + y;
      re[t] = (lum[i]! - ml) * hy * HANN[x]!;
      im[t] = (chroma[i]! - mc) * hy * HANN[x]!;
    }
  }
  fft2dOfTransposed();
  const { bins, mirrors } = ANNULUS;
  let lumPeak = 0;
  let chromaPeak = 0;
  for (let j = 0; j < bins.length; j++) {
    const a = bins[j]!;
    const b = mirrors[j]!;
    // L̂ = ((re_a + re_b) + i(im_a − im_b)) / 2, Ĉ = ((im_a + im_b) − i(re_a − re_b)) / 2.
    const lr = (re[a]! + re[b]!) / 2;
    const li = (im[a]! - im[b]!) / 2;
    const cr = (im[a]! + im[b]!) / 2;
    const ci = (re[a]! - re[b]!) / 2;
    const pl = lr * lr + li * li;
    const pc = cr * cr + ci * ci;
    lumPower[j] = pl;
    chromaPower[j] = pc;
    if (pl > lumPeak) lumPeak = pl;
    if (pc > chromaPeak) chromaPeak = pc;
  }
  return [peakRatio(lumPeak, lumPower), peakRatio(chromaPeak, chromaPower)];
}

/** Peak / median power in the annulus of periods 2–6 px. */
function peakRatio(peak: number, annulus: Float64Array): number {
  // Floor: the power a ±2 grey-level noise would give after the Hann window (σ² · Σw² ≈ 4 · 48²),
  // so that a flat, noiseless tile (synthetic scans) does not turn any tiny peak into a huge ratio.
  const floor = 4 * 48 * 48;
  return peak / (quantile(annulus, 0.5) + floor);
}

/** The 3×3 grid of tiles the score is taken over, and the rank of its low quantile (20 %). */
const TILES = 9;
const SCORE_QUANTILE = 0.2;
const SCORE_RANK = Math.floor(SCORE_QUANTILE * (TILES - 1));

/**
 * Low quantile over tiles of the strongest periodic peak ratio (luminance or colour).
 *
 * With `bar` given, the tiles stop as soon as more than SCORE_RANK of them fall under it: the
 * score, a rank that low, is then under the bar whatever the other tiles measure, and the value
 * returned is the same rank over the tiles measured so far (at least the score, still under the
 * bar). From the bar up the score is exact. The tamper step only compares the score to its bar
 * (screenStrength), and a paper document's tiles measure far under it: most of the transforms
 * were spent on tiles that could not change the sign.
 */
export function screenPeakRatio(image: NormalizedImage, bar = 0): number {
  const { rgb, width, height } = image;
  if (width < TILE || height < TILE) return 0;
  // A 3×3 grid of tiles over the central 80 % of the picture.
  const ratios: number[] = [];
  let under = 0;
  const lum = new Float64Array(TILE * TILE);
  const chroma = new Float64Array(TILE * TILE);
  for (let ty = 0; ty < 3; ty++) {
    for (let tx = 0; tx < 3; tx++) {
      const x0 = Math.floor(width * 0.1 + ((width * 0.8 - TILE) * tx) / 2);
      const y0 = Math.floor(height * 0.1 + ((height * 0.8 - TILE) * ty) / 2);
      for (let y = 0; y < TILE; y++) {
        for (let x = 0; x < TILE; x++) {
          const i = ((y0 + y) * width + x0 + x) * 3;
          lum[y * TILE + x] = luma(rgb[i]!, rgb[i + 1]!, rgb[i + 2]!);
          chroma[y * TILE + x] = rgb[i]! - rgb[i + 1]!;
        }
      }
      const ratio = Math.max(...tilePeakRatios(lum, chroma));
      ratios.push(ratio);
      if (ratio < bar && ++under > SCORE_RANK) return scoreRank(ratios);
    }
  }
  // Low quantile: the grid must show in (nearly) every tile, as a screen covers the whole photo.
  return quantile(ratios, SCORE_QUANTILE);
}

/** The score's rank among the tiles measured (never under the same rank over all the tiles). */
function scoreRank(ratios: number[]): number {
  return [...ratios].sort((a, b) => a - b)[SCORE_RANK]!;
}

/**
 * The same score on the upload at its own resolution (EXIF orientation applied). Null when the
 * upload is not larger than the working copy (nothing to add) or does not decode.
 */
export async function nativeScreenPeakRatio(
  bytes: Uint8Array,
  working: NormalizedImage,
): Promise<number | null> {
  if (working.originalWidth <= working.width && working.originalHeight <= working.height) return null;
  try {
    const { data, info } = await profiled(
      'decode',
      'screen-native',
      `${working.originalWidth}x${working.originalHeight}`,
      () =>
        sharp(bytes, DECODE_LIMITS)
          .rotate()
          .removeAlpha()
          .toColourspace('srgb')
          .raw()
          .toBuffer({ resolveWithObject: true }),
    );
    return screenPeakRatio({
      ...working,
      rgb: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      width: info.width,
      height: info.height,
    });
  } catch {
    return null;
  }
}

/**
 * `nativeScreenPeakRatio` for each side whose upload is given. The analyzer starts this with the
 * reading step (the decode runs on libvips' threads) and hands the result to detectTamper.
 */
export async function nativeScreenPeakRatios(
  images: TamperImages,
): Promise<Partial<Record<'front' | 'back', number | null>>> {
  const out: Partial<Record<'front' | 'back', number | null>> = {};
  for (const side of ['front', 'back'] as const) {
    const image = images[side];
    const bytes = images.originals?.[side];
    if (image && bytes) out[side] = await nativeScreenPeakRatio(bytes, image);
  }
  return out;
}

export function screenStrength(ratio: number): number | null {
  if (ratio < SCREEN_PEAK_RATIO) return null;
  return Math.min(1, (ratio - SCREEN_PEAK_RATIO) / (SCREEN_UNMISTAKABLE_RATIO - SCREEN_PEAK_RATIO));
}
