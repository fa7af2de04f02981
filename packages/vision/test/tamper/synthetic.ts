import { luma } from '../../src/image/grey.ts';
import type { NormalizedImage } from '../../src/image/normalize.ts';
import { rgbImage } from '../../src/image/raster.ts';

/** Deterministic pseudo-random numbers (tests must not be flaky). */
export function rng(seed = 1): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** A block of ink on `inkBlockPage`, of its own grey `tone` (25, the text's black, when absent). */
export type InkBlock = { x: number; y: number; w: number; h: number; tone?: number };

/**
 * Light paper with mild noise and dark blocks of ink standing for glyphs (the field cues' test
 * pages). Where blocks overlap, the darker ink shows.
 */
export function inkBlockPage(
  width: number,
  height: number,
  blocks: InkBlock[],
  seed: number,
): NormalizedImage {
  const rand = rng(seed);
  return drawnPage(width, height, (x, y) => {
    let tone: number | null = null;
    for (const b of blocks)
      if (x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h) tone = Math.min(tone ?? 255, b.tone ?? 25);
    const v = tone !== null ? tone + rand() * 10 : 225 + (rand() - 0.5) * 6;
    return [v, v - 2, v + 3];
  });
}

/** A page drawn pixel by pixel, rows top to bottom (seeded noise is drawn in that order). */
function drawnPage(
  width: number,
  height: number,
  rgbAt: (x: number, y: number) => [number, number, number],
): NormalizedImage {
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rgb.set(rgbAt(x, y), (y * width + x) * 3);
  return rgbImage(rgb, width, height);
}

/**
 * A synthetic "colour document": a tinted background with smooth colour gradients, fine
 * guilloche-like wavy lines in several inks, dark text-like bars, and mild camera noise.
 */
export function colourDocument(width = 640, height = 400, seed = 7): NormalizedImage {
  const rand = rng(seed);
  const rgb = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const wave = Math.sin(x / 7 + 3 * Math.sin(y / 23)) > 0.85;
      const wave2 = Math.sin(y / 5 + 2 * Math.sin(x / 31)) > 0.9;
      let r = 200 + 30 * Math.sin(x / 90);
      let g = 185 + 25 * Math.cos(y / 70);
      let b = 215 - 30 * Math.sin((x + y) / 120);
      if (wave) [r, g, b] = [90, 150, 210];
      if (wave2) [r, g, b] = [220, 120, 150];
      // text bars
      const row = Math.floor(y / 40);
      if (
        y % 40 > 14 &&
        y % 40 < 30 &&
        x > 260 &&
        x < 600 &&
        (Math.floor(x / 14) + row) % 5 !== 0 &&
        x % 14 < 10
      ) {
        [r, g, b] = [30, 30, 40];
      }
      const n = (rand() - 0.5) * 6;
      rgb[i] = Math.max(0, Math.min(255, r + n));
      rgb[i + 1] = Math.max(0, Math.min(255, g + n));
      rgb[i + 2] = Math.max(0, Math.min(255, b + n));
    }
  }
  return rgbImage(rgb, width, height);
}

/** The same picture turned grey, with a warm uniform cast (a photocopy under a lamp). */
export function greyCopy(
  image: NormalizedImage,
  cast: [number, number, number] = [1.06, 1.0, 0.9],
): NormalizedImage {
  const rgb = new Uint8Array(image.rgb.length);
  for (let i = 0; i < rgb.length; i += 3) {
    const l = luma(image.rgb[i]!, image.rgb[i + 1]!, image.rgb[i + 2]!);
    for (let c = 0; c < 3; c++) rgb[i + c] = Math.min(255, Math.round(l * cast[c]!));
  }
  return rgbImage(rgb, image.width, image.height);
}

/** Applies `f(x, y, [r,g,b]) → [r,g,b]` to every pixel of a copy. */
export function mapPixels(
  image: NormalizedImage,
  f: (x: number, y: number, px: [number, number, number]) => [number, number, number],
): NormalizedImage {
  const rgb = new Uint8Array(image.rgb.length);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 3;
      const out = f(x, y, [image.rgb[i]!, image.rgb[i + 1]!, image.rgb[i + 2]!]);
      for (let c = 0; c < 3; c++) rgb[i + c] = Math.max(0, Math.min(255, Math.round(out[c]!)));
    }
  }
  return rgbImage(rgb, image.width, image.height);
}

/**
 * A field of ten dark "glyph" blocks (x 100–420, y 180–220) on a colour page, its own text bars
 * kept out of the field and its margin. `tall`: glyph k starts higher, at `tallTop` (a glyph set
 * larger); `patch`: a white label pasted over the field (correction fluid); `glare`: a compact
 * lamp reflection away from the field, about 0.03 of the photo.
 */
export function glyphFieldPage(
  opts: { tall?: number; tallTop?: number; patch?: boolean; glare?: boolean } = {},
): NormalizedImage {
  const rand = rng(3);
  return mapPixels(colourDocument(640, 400, 11), (x, y, px) => {
    if (opts.glare && (x - 540) ** 2 + (y - 90) ** 2 < 52 ** 2) return [255, 255, 255];
    let out: [number, number, number] =
      x >= 80 && x < 440 && y >= 160 && y < 240 && px[0] < 60 ? [200, 188, 212] : px;
    if (opts.patch && x >= 96 && x < 424 && y >= 176 && y < 224) out = [252, 252, 250];
    if (x >= 100 && x < 420 && y >= 180 && y < 220) {
      const k = Math.floor((x - 100) / 32);
      const col = (x - 100) % 32;
      const top = k === opts.tall ? (opts.tallTop ?? 184) : 190;
      if (col >= 6 && col < 24 && y >= top && y < 212) out = [25 + rand() * 10, 25, 35];
    }
    return out;
  });
}

/** One pass of a box blur of radius r along x (dx = 1) or y (dx = 0), edges clamped. */
function boxBlurPass(src: ArrayLike<number>, w: number, h: number, r: number, dx: 0 | 1): Float32Array {
  const out = new Float32Array(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let c = 0; c < 3; c++) {
        let s = 0;
        for (let k = -r; k <= r; k++) {
          const xx = dx ? Math.min(w - 1, Math.max(0, x + k)) : x;
          const yy = dx ? y : Math.min(h - 1, Math.max(0, y + k));
          s += src[(yy * w + xx) * 3 + c]!;
        }
        out[(y * w + x) * 3 + c] = s / (2 * r + 1);
      }
    }
  }
  return out;
}

/** Box blur of radius r (separable), to simulate defocus. */
export function boxBlur(image: NormalizedImage, r: number): NormalizedImage {
  const { width: w, height: h } = image;
  const blurred = boxBlurPass(boxBlurPass(image.rgb, w, h, r, 1), w, h, r, 0);
  return rgbImage(
    Uint8Array.from(blurred, (v) => Math.round(v)),
    w,
    h,
  );
}

/**
 * Text lines on a page, with or without a fine printed pattern behind them (±12 grey levels,
 * like microprint or guilloche behind the fields): the in-painting cues' test pages. Each line
 * (a quad, TL TR BR BL, axis-aligned) holds 9 px wide strokes every 14 px standing for letters.
 */
export function patternedLinesPage(
  width: number,
  height: number,
  lines: [number, number][][],
  pattern: boolean,
  seed: number,
): NormalizedImage {
  const rand = rng(seed);
  return drawnPage(width, height, (x, y) => {
    let v = 200 + (pattern ? printedPattern(x, y) : 0);
    for (const q of lines) if (onStroke(q, x, y)) v = 40;
    return greyNoisy(v, rand);
  });
}

/** The fine printed pattern of patternedLinesPage: ±12 grey levels. */
const printedPattern = (x: number, y: number) =>
  12 * Math.sin(x * 1.3 + 2 * Math.sin(y * 0.21)) * Math.sin(y * 1.1);

/** Whether (x, y) lies on one of a line's letter strokes (9 px wide every 14 px, inset from its quad). */
const onStroke = (q: [number, number][], x: number, y: number) =>
  x > q[0]![0] + 4 && x < q[1]![0] - 4 && y > q[0]![1] + 5 && y < q[2]![1] - 5 && x % 14 < 9;

/** A grey level with ±2 of seeded noise, slightly warm. */
function greyNoisy(v: number, rand: () => number): [number, number, number] {
  const n = v + (rand() - 0.5) * 4;
  const channel = (c: number) => Math.max(0, Math.min(255, n + 6 - 6 * c));
  return [channel(0), channel(1), channel(2)];
}

/**
 * A header as cards print it: light letters in a dark band (the band grown `margin` px around the
 * line's quad, printed at 80 % over the page's fine pattern), on a patterned page.
 */
export function bandedHeaderPage(
  width: number,
  height: number,
  line: [number, number][],
  margin: number,
  seed: number,
): NormalizedImage {
  const rand = rng(seed);
  const inBand = (x: number, y: number) =>
    x >= line[0]![0] - margin &&
    x < line[1]![0] + margin &&
    y >= line[0]![1] - margin &&
    y < line[2]![1] + margin;
  return drawnPage(width, height, (x, y) => {
    const page = 228 + printedPattern(x, y);
    let v = inBand(x, y) ? 0.2 * page + 0.8 * 110 : page;
    if (onStroke(line, x, y)) v = 250;
    return greyNoisy(v, rand);
  });
}
