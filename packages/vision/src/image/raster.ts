import type { NormalizedImage } from './normalize.ts';

/**
 * Small, dependency-free raster operations on the decoded pixels. They run synchronously on
 * images of at most a few megapixels, which is cheaper than a round trip through sharp for the
 * many small crops the OCR makes.
 */

/** 8-bit RGB image, row-major (same layout as NormalizedImage.rgb). */
export interface RgbImage {
  rgb: Uint8Array;
  width: number;
  height: number;
}

/** Axis-aligned box in pixels: left, top, width, height. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export type Point = [number, number];
/** Four corners, clockwise from top-left of the text/document as it should be read. */
export type Quad = [Point, Point, Point, Point];

/** Bilinear resize of an RGB image (used for downscaling before detection). */
export function resizeRgb(img: RgbImage, width: number, height: number): RgbImage {
  const sx = img.width / width;
  const sy = img.height / height;
  // When shrinking a lot, plain bilinear aliases thin strokes; average a small box instead.
  const box = Math.max(1, Math.floor(Math.min(sx, sy)));
  return box >= 2 ? boxResize(img, width, height, sx, sy, box) : bilinearResize(img, width, height, sx, sy);
}

/**
 * Each output pixel the mean of the `box`×`box` input pixels from its top-left corner (the box
 * is at most the scale, so it stays inside the image; the clamps are kept). The columns' first input pixel and width are computed once per
 * column; the sums are of whole numbers, so the same means whatever the order.
 */
function boxResize(
  img: RgbImage,
  width: number,
  height: number,
  sx: number,
  sy: number,
  box: number,
): RgbImage {
  const out = new Uint8Array(width * height * 3);
  const { rgb: d, width: w, height: h } = img;
  const first = new Int32Array(width);
  const across = new Int32Array(width);
  for (let x = 0; x < width; x++) {
    const x0 = Math.floor(x * sx);
    first[x] = x0 * 3;
    across[x] = Math.max(0, Math.min(w, x0 + box) - x0);
  }
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor(y * sy);
    const y1 = Math.min(h, y0 + box);
    const row = y0 * w * 3;
    const full = y1 - y0 === 2;
    for (let x = 0, o = y * width * 3; x < width; x++, o += 3) {
      const cols = across[x]!;
      if (box === 2 && full && cols === 2) {
        // The detector's usual case (a 1,000–1,600 px photo to 640 px): a whole 2×2 box.
        const p = row + first[x]!;
        const q = p + w * 3;
        out[o] = (d[p]! + d[p + 3]! + d[q]! + d[q + 3]!) / 4;
        out[o + 1] = (d[p + 1]! + d[p + 4]! + d[q + 1]! + d[q + 4]!) / 4;
        out[o + 2] = (d[p + 2]! + d[p + 5]! + d[q + 2]! + d[q + 5]!) / 4;
        continue;
      }
      let r = 0;
      let g = 0;
      let b = 0;
      for (let yy = y0; yy < y1; yy++) {
        const start = yy * w * 3 + first[x]!;
        const end = start + cols * 3;
        for (let p = start; p < end; p += 3) {
          r += d[p]!;
          g += d[p + 1]!;
          b += d[p + 2]!;
        }
      }
      const n = Math.max(0, y1 - y0) * cols;
      out[o] = r / n;
      out[o + 1] = g / n;
      out[o + 2] = b / n;
    }
  }
  return { rgb: out, width, height };
}

/**
 * `sampleRgb` at ((x + 0.5)·sx − 0.5, (y + 0.5)·sy − 0.5) for every output pixel, with the
 * columns' and rows' sample positions and weights computed once each instead of once per pixel
 * (half the time of calling sampleRgb per pixel). Same values, same arithmetic order, so the same
 * bytes (test/image/raster-fast-paths.test.ts).
 */
function bilinearResize(img: RgbImage, width: number, height: number, sx: number, sy: number): RgbImage {
  const out = new Uint8Array(width * height * 3);
  const { rgb: d, width: w, height: h } = img;
  const left = new Int32Array(width);
  const right = new Int32Array(width);
  const weight = new Float64Array(width);
  for (let x = 0; x < width; x++) {
    const fx = Math.min(Math.max((x + 0.5) * sx - 0.5, 0), w - 1);
    const x0 = Math.floor(fx);
    left[x] = x0 * 3;
    right[x] = Math.min(x0 + 1, w - 1) * 3;
    weight[x] = fx - x0;
  }
  for (let y = 0; y < height; y++) {
    const fy = Math.min(Math.max((y + 0.5) * sy - 0.5, 0), h - 1);
    const y0 = Math.floor(fy);
    const ay = fy - y0;
    const by = 1 - ay;
    const top = y0 * w * 3;
    const bottom = Math.min(y0 + 1, h - 1) * w * 3;
    for (let x = 0, o = y * width * 3; x < width; x++, o += 3) {
      const ax = weight[x]!;
      const bx = 1 - ax;
      const p00 = top + left[x]!;
      const p01 = top + right[x]!;
      const p10 = bottom + left[x]!;
      const p11 = bottom + right[x]!;
      for (let c = 0; c < 3; c++) {
        const t = d[p00 + c]! * bx + d[p01 + c]! * ax;
        const b = d[p10 + c]! * bx + d[p11 + c]! * ax;
        out[o + c] = t * by + b * ay;
      }
    }
  }
  return { rgb: out, width, height };
}

/** Writes the bilinear sample of `img` at (fx, fy) into out[o..o+2]; outside pixels are clamped. */
export function sampleRgb(
  img: RgbImage,
  fx: number,
  fy: number,
  out: Uint8Array | Float32Array,
  o: number,
): void {
  const w = img.width;
  const h = img.height;
  const x = Math.min(Math.max(fx, 0), w - 1);
  const y = Math.min(Math.max(fy, 0), h - 1);
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const x1 = Math.min(x0 + 1, w - 1);
  const y1 = Math.min(y0 + 1, h - 1);
  const ax = x - x0;
  const ay = y - y0;
  const p00 = (y0 * w + x0) * 3;
  const p01 = (y0 * w + x1) * 3;
  const p10 = (y1 * w + x0) * 3;
  const p11 = (y1 * w + x1) * 3;
  const d = img.rgb;
  for (let c = 0; c < 3; c++) {
    const top = d[p00 + c]! * (1 - ax) + d[p01 + c]! * ax;
    const bot = d[p10 + c]! * (1 - ax) + d[p11 + c]! * ax;
    out[o + c] = top * (1 - ay) + bot * ay;
  }
}

/** Rotates by a multiple of 90 degrees clockwise. */
export function rotateRgb(img: RgbImage, quarterTurns: number): RgbImage {
  const q = ((quarterTurns % 4) + 4) % 4;
  if (q === 0) return img;
  const { width: w, height: h, rgb } = img;
  const ow = q === 2 ? w : h;
  const oh = q === 2 ? h : w;
  const out = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let nx: number;
      let ny: number;
      if (q === 1) {
        nx = h - 1 - y;
        ny = x;
      } else if (q === 2) {
        nx = w - 1 - x;
        ny = h - 1 - y;
      } else {
        nx = y;
        ny = w - 1 - x;
      }
      const s = (y * w + x) * 3;
      const d = (ny * ow + nx) * 3;
      out[d] = rgb[s]!;
      out[d + 1] = rgb[s + 1]!;
      out[d + 2] = rgb[s + 2]!;
    }
  }
  return { rgb: out, width: ow, height: oh };
}

/** Same image with a NormalizedImage's metadata, for functions that want the full type. */
export function withPixels(base: NormalizedImage, img: RgbImage): NormalizedImage {
  return { ...base, rgb: img.rgb, width: img.width, height: img.height };
}

/**
 * Solves the 3x3 homography mapping the unit rectangle corners (0,0),(W,0),(W,H),(0,H) to `quad`.
 * Used to sample a straightened crop out of a tilted text line or document.
 */
export function homographyFromRect(w: number, h: number, quad: Quad): number[] {
  // Map unit square to quad (Heckbert's closed form), then pre-scale by 1/w, 1/h.
  const [[x0, y0], [x1, y1], [x2, y2], [x3, y3]] = quad;
  const dx1 = x1 - x2;
  const dx2 = x3 - x2;
  const dy1 = y1 - y2;
  const dy2 = y3 - y2;
  const sx = x0 - x1 + x2 - x3;
  const sy = y0 - y1 + y2 - y3;
  let g = 0;
  let hh = 0;
  if (Math.abs(sx) > 1e-9 || Math.abs(sy) > 1e-9) {
    const den = dx1 * dy2 - dx2 * dy1;
    g = (sx * dy2 - dx2 * sy) / den;
    hh = (dx1 * sy - sx * dy1) / den;
  }
  const a = x1 - x0 + g * x1;
  const b = x3 - x0 + hh * x3;
  const c = x0;
  const d = y1 - y0 + g * y1;
  const e = y3 - y0 + hh * y3;
  const f = y0;
  return [a / w, b / h, c, d / w, e / h, f, g / w, hh / h, 1];
}

/**
 * Samples the quadrilateral `quad` of `img` into an upright `width`×`height` RGB image
 * (perspective warp, bilinear). Corners: top-left, top-right, bottom-right, bottom-left.
 */
export function warpQuad(img: RgbImage, quad: Quad, width: number, height: number): RgbImage {
  const m = homographyFromRect(width, height, quad);
  const out = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    const v = y + 0.5;
    for (let x = 0; x < width; x++) {
      const u = x + 0.5;
      const den = m[6]! * u + m[7]! * v + m[8]!;
      const fx = (m[0]! * u + m[1]! * v + m[2]!) / den - 0.5;
      const fy = (m[3]! * u + m[4]! * v + m[5]!) / den - 0.5;
      sampleRgb(img, fx, fy, out, (y * width + x) * 3);
    }
  }
  return { rgb: out, width, height };
}

/** Axis-aligned crop (clamped to the image). */
export function cropRgb(img: RgbImage, x: number, y: number, w: number, h: number): RgbImage {
  const x0 = Math.max(0, Math.floor(x));
  const y0 = Math.max(0, Math.floor(y));
  const x1 = Math.min(img.width, Math.ceil(x + w));
  const y1 = Math.min(img.height, Math.ceil(y + h));
  const cw = Math.max(1, x1 - x0);
  const ch = Math.max(1, y1 - y0);
  const out = new Uint8Array(cw * ch * 3);
  for (let yy = 0; yy < ch; yy++) {
    const src = ((y0 + yy) * img.width + x0) * 3;
    out.set(img.rgb.subarray(src, src + cw * 3), yy * cw * 3);
  }
  return { rgb: out, width: cw, height: ch };
}

/** `b` cut to the image and snapped outwards to whole pixels (zero size when outside). */
export function clampBox(b: Box, width: number, height: number): Box {
  const x = Math.max(0, Math.floor(b.x));
  const y = Math.max(0, Math.floor(b.y));
  const x1 = Math.min(width, Math.ceil(b.x + b.w));
  const y1 = Math.min(height, Math.ceil(b.y + b.h));
  return { x, y, w: Math.max(0, x1 - x), h: Math.max(0, y1 - y) };
}

/** Crops a region of an image into a new NormalizedImage (integer box clamped to the image). */
export function cropImage(src: NormalizedImage, box: Box): NormalizedImage {
  return { ...src, ...cropRgb(src, box.x, box.y, box.w, box.h) };
}

/** Wraps raw RGB bytes as a NormalizedImage (synthetic images in tests and tools). */
export function rgbImage(rgb: Uint8Array, width: number, height: number): NormalizedImage {
  return { rgb, width, height, originalWidth: width, originalHeight: height, format: 'png' };
}

export function quadWidth(q: Quad): number {
  return (dist(q[0], q[1]) + dist(q[3], q[2])) / 2;
}

export function quadHeight(q: Quad): number {
  return (dist(q[0], q[3]) + dist(q[1], q[2])) / 2;
}

export function dist(a: Point, b: Point): number {
  return Math.hypot(a[0] - b[0], a[1] - b[1]);
}
