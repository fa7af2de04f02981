import type { RgbImage } from '../../../src/image/raster.ts';

/** A rectangle by its first and last pixel (inclusive), inside the image. */
export interface PixelRect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * The rectangle in-painted from its border inwards, the way an in-painting tool or a clone fill
 * erases a field: each pixel becomes the mean of its already known neighbours, peel after peel
 * (an onion-peel fill like OpenCV's TELEA, without its gradient weighting), so the fill carries
 * the border's tones inwards and none of the printed pattern. Returns a new image.
 */
export function onionPeelFill(image: RgbImage, r: PixelRect): RgbImage {
  const [bw, bh, W] = [r.x1 - r.x0 + 1, r.y1 - r.y0 + 1, image.width];
  const rgb = image.rgb.slice();
  for (let c = 0; c < 3; c++) {
    const fill = new Float32Array(bw * bh);
    const known = new Uint8Array(bw * bh);
    const inBox = (x: number, y: number) => x >= 0 && y >= 0 && x < bw && y < bh;
    const value = (x: number, y: number) =>
      inBox(x, y) ? fill[y * bw + x]! : image.rgb[((r.y0 + y) * W + r.x0 + x) * 3 + c]!;
    for (;;) {
      const ring: [number, number][] = [];
      for (let y = 0; y < bh; y++) {
        for (let x = 0; x < bw; x++) {
          if (known[y * bw + x]) continue;
          let sum = 0;
          let n = 0;
          for (let dy = -1; dy <= 1; dy++)
            for (let dx = -1; dx <= 1; dx++) {
              if ((dx || dy) && (!inBox(x + dx, y + dy) || known[(y + dy) * bw + x + dx])) {
                sum += value(x + dx, y + dy);
                n++;
              }
            }
          if (n >= 2) ring.push([y * bw + x, sum / n]);
        }
      }
      if (ring.length === 0) break;
      for (const [i, v] of ring) {
        fill[i] = v;
        known[i] = 1;
      }
    }
    for (let y = 0; y < bh; y++)
      for (let x = 0; x < bw; x++) rgb[((r.y0 + y) * W + r.x0 + x) * 3 + c] = Math.round(fill[y * bw + x]!);
  }
  return { rgb, width: image.width, height: image.height };
}

/** A box grown by `margin` px on every side, kept one pixel inside the image (the fill reads its border). */
export function grownRect(
  box: { x: number; y: number; w: number; h: number },
  margin: number,
  width: number,
  height: number,
): PixelRect {
  return {
    x0: Math.max(1, Math.floor(box.x - margin)),
    y0: Math.max(1, Math.floor(box.y - margin)),
    x1: Math.min(width - 2, Math.ceil(box.x + box.w - 1 + margin)),
    y1: Math.min(height - 2, Math.ceil(box.y + box.h - 1 + margin)),
  };
}
