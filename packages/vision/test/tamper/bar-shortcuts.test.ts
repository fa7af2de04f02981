import { describe, expect, it } from 'vitest';
import { toGrey } from '../../src/image/grey.ts';
import type { NormalizedImage } from '../../src/image/normalize.ts';
import { rgbImage } from '../../src/image/raster.ts';
import { quantile } from '../../src/image/stats.ts';
import {
  BLUR_MAX_LAPLACIAN_VAR,
  GLARE_MIN_FRACTION,
  glareFraction,
  sharpness,
} from '../../src/tamper/capture.ts';
import { fieldPaperTone, straightenedWithRing } from '../../src/tamper/field-background.ts';
import { grow2, grow2Rows } from '../../src/tamper/near-ink.ts';
import { colourSpread } from '../../src/tamper/photocopy.ts';
import { laplacianVariance } from '../../src/tamper/pixels.ts';
import { SCREEN_PEAK_RATIO, screenPeakRatio } from '../../src/tamper/screen.ts';
import { textBands } from '../../src/tamper/text-line.ts';
import { boxBlur, colourDocument, greyCopy, mapPixels, rng } from './synthetic.ts';

/**
 * Measures that stop once their sign is settled: given the sign's bar, each gives the plain
 * value wherever the sign depends on it, and otherwise a value on the same side of the bar.
 */

/** The 4-neighbour Laplacian's variance pixel by pixel (what the blur measure computed). */
function plainLaplacianVariance(image: NormalizedImage): number {
  const { data: d, width: w, height: h } = toGrey(image);
  let s = 0;
  let s2 = 0;
  let n = 0;
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const v = d[i - w]! + d[i + w]! + d[i - 1]! + d[i + 1]! - 4 * d[i]!;
      s += v;
      s2 += v * v;
      n++;
    }
  return s2 / n - (s / n) ** 2;
}

/** The next double below a positive one. */
function below(v: number): number {
  const f = new Float64Array([v]);
  const bits = new BigInt64Array(f.buffer);
  bits[0]! -= 1n;
  return f[0]!;
}

describe('measures stopped at their sign’s bar', () => {
  it('measures blur row by row from the colour pixels as on the grey image', () => {
    const doc = colourDocument(900, 560, 13);
    const plain = plainLaplacianVariance(doc);
    expect(sharpness(doc)).toBe(plain);
    expect(sharpness(doc, toGrey(doc))).toBe(plain);
    expect(laplacianVariance(toGrey(doc))).toBe(plain);
  });

  it('stops the blur measure above its bar, and measures a blurred photo in full', () => {
    const doc = colourDocument(900, 560, 13);
    const plain = plainLaplacianVariance(doc);
    expect(plain).toBeGreaterThan(BLUR_MAX_LAPLACIAN_VAR);
    expect(sharpness(doc, undefined, BLUR_MAX_LAPLACIAN_VAR)).toBeGreaterThanOrEqual(BLUR_MAX_LAPLACIAN_VAR);
    // The rows read show at most the whole image's variance.
    expect(sharpness(doc, undefined, BLUR_MAX_LAPLACIAN_VAR)).toBeLessThanOrEqual(plain);
    const blurred = boxBlur(doc, 4);
    const soft = plainLaplacianVariance(blurred);
    expect(soft).toBeLessThan(BLUR_MAX_LAPLACIAN_VAR);
    expect(sharpness(blurred, undefined, BLUR_MAX_LAPLACIAN_VAR)).toBe(soft);
    expect(sharpness(blurred, toGrey(blurred), BLUR_MAX_LAPLACIAN_VAR)).toBe(soft);
  });

  it('traces glare blobs only where enough white is clipped for one to reach the bar', () => {
    const [w, h] = [400, 300];
    const withBlob = (radius: number) => {
      const rgb = new Uint8Array(w * h * 3).fill(128);
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++)
          if ((x - 200) ** 2 + (y - 150) ** 2 <= radius ** 2)
            rgb.fill(255, (y * w + x) * 3, (y * w + x) * 3 + 3);
      return rgbImage(rgb, w, h);
    };
    // A blob past the bar: its share, as without the bar.
    const large = withBlob(30);
    expect(glareFraction(large)).toBeGreaterThan(GLARE_MIN_FRACTION);
    expect(glareFraction(large, GLARE_MIN_FRACTION)).toBe(glareFraction(large));
    // A small one: under the bar either way, and not under the blob's own share.
    const small = withBlob(5);
    const share = glareFraction(small);
    expect(share).toBeGreaterThan(0);
    expect(glareFraction(small, GLARE_MIN_FRACTION)).toBeLessThan(GLARE_MIN_FRACTION);
    expect(glareFraction(small, GLARE_MIN_FRACTION)).toBeGreaterThanOrEqual(share);
  });

  it('ranks the colour spread only when it may lie at or under the bar', () => {
    const doc = colourDocument(1000, 640, 23);
    const window = { x: 200, y: 128, w: 600, h: 384 };
    for (const image of [doc, greyCopy(doc)])
      for (const weighted of [true, false]) {
        const plain = colourSpread(image, window, weighted);
        expect(Number.isNaN(plain)).toBe(false);
        // At the bar exactly the spread is not above it: ranked, the same value.
        expect(colourSpread(image, window, weighted, plain)).toBe(plain);
        expect(colourSpread(image, window, weighted, plain * 2)).toBe(plain);
        // A hair under it, the spread is above: not ranked.
        expect(colourSpread(image, window, weighted, below(plain))).toBe(Number.POSITIVE_INFINITY);
        expect(colourSpread(image, window, weighted, plain / 2)).toBe(Number.POSITIVE_INFINITY);
      }
  });

  it('grows an ink mask a band of rows at a time as it grows the whole mask', () => {
    const rand = rng(31);
    for (const [W, H, density] of [
      [37, 23, 0.02],
      [64, 41, 0.2],
      [9, 2, 0.3],
    ] as const) {
      const mask = Uint8Array.from({ length: W * H }, () => (rand() < density ? 1 : 0));
      const whole = Array.from(grow2(mask, W, H));
      for (let split = 0; split <= H; split++) {
        const out = new Uint8Array(W * H);
        grow2Rows(mask, W, H, 0, split, out);
        grow2Rows(mask, W, H, split, H, out);
        expect(Array.from(out)).toEqual(whole);
      }
    }
  });

  it('stops the screen score once it is settled under the bar, exact from the bar up', () => {
    const doc = colourDocument();
    const screen = mapPixels(doc, (x, y, [r, g, b]) => {
      const gap = y % 4 === 0 ? 0.6 : 1;
      return x % 3 === 0 ? [r * 1.15 * gap, g * 0.8 * gap, b * 0.8 * gap] : [r * 0.8, g * 1.1, b * 0.9];
    });
    const plain = screenPeakRatio(doc);
    const settled = screenPeakRatio(doc, SCREEN_PEAK_RATIO);
    expect(settled).toBeGreaterThanOrEqual(plain);
    expect(settled).toBeLessThan(SCREEN_PEAK_RATIO);
    expect(screenPeakRatio(screen)).toBeGreaterThan(SCREEN_PEAK_RATIO);
    expect(screenPeakRatio(screen, SCREEN_PEAK_RATIO)).toBe(screenPeakRatio(screen));
    // A bar under every tile's ratio settles nothing: the score itself.
    expect(screenPeakRatio(doc, 0)).toBe(plain);
  });
});

describe('the field cues’ shared measures', () => {
  it('takes a straightened field’s paper tone once, as each cue took it from its pixels', () => {
    const doc = colourDocument(900, 560, 17);
    const quads: [number, number][][] = [
      [
        [101.3, 80.2],
        [402.7, 95.9],
        [400.1, 131.4],
        [99.6, 116.8],
      ],
      [
        [300, 300],
        [700, 300],
        [700, 330],
        [300, 330],
      ],
    ];
    for (const quad of quads) {
      const ring = straightenedWithRing(doc, quad);
      const { canvas, inner } = ring;
      const pixels: number[] = [];
      for (let y = inner.y; y < inner.y + inner.h; y++)
        for (let x = inner.x; x < inner.x + inner.w; x++) pixels.push(canvas.data[y * canvas.width + x]!);
      expect(fieldPaperTone(ring)).toBe(quantile(pixels, 0.75));
      expect(textBands(canvas, inner, fieldPaperTone(ring))).toBe(textBands(canvas, inner));
    }
  });
});
