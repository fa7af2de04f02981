import type { NormalizedImage } from '../image/normalize.ts';
import { quantile } from '../image/stats.ts';
import type { Region } from './types.ts';

/**
 * Colour left anywhere on the document page, to keep a pale genuine print from failing as a grey
 * copy. A print in pale tints measures a colour spread as low as a copy's (photocopy.ts), but
 * keeps a few saturated marks (a flag stripe along the edge, a gold title) that a grey copy
 * cannot have. Those marks often lie outside the photocopy window (around the portrait, cut to
 * the read text), so the document's whole extent is measured here, as the reading step gives it
 * (its read text with a margin). It is not grown further towards the page's edges: on a real
 * grey copy printed on a sheet, the sheet around the copy carried a pen and a cap into the
 * measure (docs/decisions.md, issue 14, the page's colour).
 */

/**
 * Above this page colour peak a grey-spread fail is held at review. Measured on the generated
 * tuning half (docs/decisions.md, issue 14, the page's colour) wherever the spread alone would
 * fail: the pale genuine prints 0.27–0.36 (their flag stripe and gold title, under stamps and
 * stains too); grey copies up to about 0.1, colour copies up to 0.12, photographed colour prints
 * up to 0.17, and a real grey copy on the fixtures' tuning half 0.175 (a pen beside it, inside
 * the read text's margin).
 * 0.24 lies in the gap between the highest attack and the lowest genuine print: no attack that
 * failed is let off; the genuine pale prints are.
 */
export const PAGE_COLOUR_PEAK = 0.24;

/** Side of the cells averaged before the colour is measured, as a share of the photo's long side. */
const CELL_SHARE = 0.004;

/**
 * The page's colour peak: chromaticity distances of small cells (a few pixels wide, averaged) to
 * the page's median chromaticity, at their 99.5th percentile. Averaging first removes the JPEG
 * chroma fringe along dark print, which a grey copy has too; a coloured stripe or title a few
 * pixels wide survives it. NaN when the page has too few mid-tone cells.
 */
export function pageColourPeak(image: NormalizedImage, page: Region): number {
  const { rgb, width } = image;
  const cell = Math.max(2, Math.round(CELL_SHARE * Math.max(image.width, image.height)));
  // Cells whole and inside the photo (a given extent may reach past its edges).
  const left = Math.max(0, Math.floor(page.x));
  const top = Math.max(0, Math.floor(page.y));
  const cols = Math.floor((Math.min(image.width, page.x + page.w) - left) / cell);
  const rows = Math.floor((Math.min(image.height, page.y + page.h) - top) / cell);
  const rs = new Float64Array(cols * rows);
  const gs = new Float64Array(cols * rows);
  let n = 0;
  for (let cy = 0; cy < rows; cy++) {
    for (let cx = 0; cx < cols; cx++) {
      let r = 0;
      let g = 0;
      let b = 0;
      const x0 = left + cx * cell;
      const y0 = top + cy * cell;
      for (let y = y0; y < y0 + cell; y++) {
        for (let x = x0; x < x0 + cell; x++) {
          const i = (y * width + x) * 3;
          r += rgb[i]!;
          g += rgb[i + 1]!;
          b += rgb[i + 2]!;
        }
      }
      const sum = r + g + b;
      const px = cell * cell;
      // As the spread: dark cells have noisy chromaticity, clipped ones none.
      if (sum < 3 * 40 * px || r > 250 * px || g > 250 * px || b > 250 * px) continue;
      rs[n] = r / sum;
      gs[n] = g / sum;
      n++;
    }
  }
  if (n < 200) return Number.NaN;
  const mr = quantile(rs.subarray(0, n), 0.5);
  const mg = quantile(gs.subarray(0, n), 0.5);
  const distances = new Float64Array(n);
  for (let i = 0; i < n; i++) distances[i] = Math.hypot(rs[i]! - mr, gs[i]! - mg);
  return quantile(distances, 0.995);
}
