import type { NormalizedImage } from '../image/normalize.ts';
import type { TextBox } from '../ocr/detect.ts';

/**
 * Glare strength on the document area (the bounding box of its text lines): the share of burnt-out
 * pixels (every channel near 255) in the worst tile of a 6×6 grid, counted only when the burn is
 * local. A reflection on a laminated card saturates a patch; a scan or a white page saturates
 * everywhere evenly and is not glare (returns 0 when over half of the area is burnt out).
 */
const SATURATED = 248;
const GRID = 6;
const UNIFORM_SHARE = 0.5;

export function glareShare(img: NormalizedImage, boxes: TextBox[]): number {
  let x0 = 0;
  let y0 = 0;
  let x1 = img.width;
  let y1 = img.height;
  if (boxes.length > 0) {
    const xs = boxes.flatMap((b) => b.quad.map((p) => p[0]));
    const ys = boxes.flatMap((b) => b.quad.map((p) => p[1]));
    x0 = Math.max(0, Math.floor(Math.min(...xs)));
    y0 = Math.max(0, Math.floor(Math.min(...ys)));
    x1 = Math.min(img.width, Math.ceil(Math.max(...xs)));
    y1 = Math.min(img.height, Math.ceil(Math.max(...ys)));
  }
  const tiles = new Float64Array(GRID * GRID);
  const counts = new Float64Array(GRID * GRID);
  let burnt = 0;
  let total = 0;
  const tw = Math.max(1, (x1 - x0) / GRID);
  const th = Math.max(1, (y1 - y0) / GRID);
  // Every other pixel is enough for a share.
  for (let y = y0; y < y1; y += 2) {
    const ty = Math.min(GRID - 1, Math.floor((y - y0) / th));
    for (let x = x0; x < x1; x += 2) {
      const t = ty * GRID + Math.min(GRID - 1, Math.floor((x - x0) / tw));
      const p = (y * img.width + x) * 3;
      total++;
      counts[t]!++;
      if (img.rgb[p]! >= SATURATED && img.rgb[p + 1]! >= SATURATED && img.rgb[p + 2]! >= SATURATED) {
        burnt++;
        tiles[t]!++;
      }
    }
  }
  if (total === 0 || burnt / total > UNIFORM_SHARE) return 0;
  let worst = 0;
  for (let t = 0; t < tiles.length; t++) if (counts[t]! > 0) worst = Math.max(worst, tiles[t]! / counts[t]!);
  return worst;
}
