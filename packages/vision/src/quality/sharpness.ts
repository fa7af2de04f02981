import { type GreyImage, toGrey } from '../image/grey.ts';
import type { NormalizedImage } from '../image/normalize.ts';
import { resizeRgb } from '../image/raster.ts';

/**
 * Blur gate: variance of the Laplacian, measured at a fixed scale so that the score does not
 * depend on the upload's resolution, and over the sharpest tiles so that a plain background
 * around the document does not make a sharp photo look blurry.
 */

/** Long side at which sharpness is measured (a 1600 px upload is averaged 2×2 down to it). */
export const SHARPNESS_SIDE = 800;
/** Tiles per side; the score is taken over the sharpest quarter of them (the text of the document). */
const GRID = 8;
const TOP_SHARE = 0.25;
/**
 * Below this score an image is refused before any reading (422 unreadable). Measured: every
 * document photo and scan of the development set scores 640–25 000 (phone video frames 2 000–4 000);
 * a synthetic 1370 px capture (test/support) scores 5 000–8 600 sharp, 310–540 at Gaussian sigma 2,
 * 73–119 at sigma 3 (still read), 24–33 at sigma 4 (MRZ no longer readable), under 10 at sigma 6.
 * The threshold sits between sigma 3 and 4, far below any ordinary phone photo.
 */
export const BLUR_THRESHOLD = 45;

export function laplacianTileVariances(g: GreyImage, grid = GRID): number[] {
  const { data, width: w, height: h } = g;
  const tw = Math.max(3, Math.floor(w / grid));
  const th = Math.max(3, Math.floor(h / grid));
  const out: number[] = [];
  for (let ty = 0; ty < grid; ty++) {
    for (let tx = 0; tx < grid; tx++) {
      let sum = 0;
      let sum2 = 0;
      let n = 0;
      const y0 = Math.max(1, ty * th);
      const y1 = Math.min(h - 1, (ty + 1) * th);
      const x0 = Math.max(1, tx * tw);
      const x1 = Math.min(w - 1, (tx + 1) * tw);
      for (let y = y0; y < y1; y++) {
        const row = y * w;
        for (let x = x0; x < x1; x++) {
          const p = row + x;
          const lap = data[p - 1]! + data[p + 1]! + data[p - w]! + data[p + w]! - 4 * data[p]!;
          sum += lap;
          sum2 += lap * lap;
          n++;
        }
      }
      if (n > 0) out.push(sum2 / n - (sum / n) ** 2);
    }
  }
  return out;
}

export function assessSharpness(img: NormalizedImage): { score: number; tooBlurry: boolean } {
  const scale = Math.min(1, SHARPNESS_SIDE / Math.max(img.width, img.height));
  const small =
    scale < 1 ? resizeRgb(img, Math.round(img.width * scale), Math.round(img.height * scale)) : img;
  const variances = laplacianTileVariances(eightBit(toGrey(small))).sort((a, b) => b - a);
  const top = variances.slice(0, Math.max(1, Math.round(variances.length * TOP_SHARE)));
  const score = top.reduce((s, v) => s + v, 0) / top.length;
  return { score, tooBlurry: score < BLUR_THRESHOLD };
}

/**
 * Grey levels rounded to whole values: BLUR_THRESHOLD and the scores above were measured on 8-bit
 * grey, whose rounding noise adds a little to the Laplacian variance.
 */
function eightBit(g: GreyImage): GreyImage {
  for (let i = 0; i < g.data.length; i++) g.data[i] = Math.round(g.data[i]!);
  return g;
}
