import { describe, expect, it } from 'vitest';
import type { GreyImage } from '../../src/image/grey.ts';
import { otsu, quantile } from '../../src/image/stats.ts';
import { type Glyph, glyphs } from '../../src/tamper/glyphs.ts';
import { tileSpectrum } from '../../src/tamper/screen.ts';
import { rng } from './synthetic.ts';

/**
 * The second round of tamper fast paths, each held to the plain computation it replaced, value
 * for value (the detectors' thresholds were set on those values).
 */

/** The plain radix-2 FFT of one row or column (the transform the screen measure used before). */
function plainFft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < len / 2; k++) {
        const wr = Math.cos(ang * k);
        const wi = Math.sin(ang * k);
        const a = i + k;
        const b = a + len / 2;
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

/** Rows, then columns, one plain transform at a time. */
function plainFft2d(re: Float64Array, im: Float64Array, side: number): void {
  const r = new Float64Array(side);
  const i = new Float64Array(side);
  for (let y = 0; y < side; y++) {
    r.set(re.subarray(y * side, (y + 1) * side));
    i.set(im.subarray(y * side, (y + 1) * side));
    plainFft(r, i);
    re.set(r, y * side);
    im.set(i, y * side);
  }
  for (let x = 0; x < side; x++) {
    for (let y = 0; y < side; y++) {
      r[y] = re[y * side + x]!;
      i[y] = im[y * side + x]!;
    }
    plainFft(r, i);
    for (let y = 0; y < side; y++) {
      re[y * side + x] = r[y]!;
      im[y * side + x] = i[y]!;
    }
  }
}

/** Dark 8-connected components as first written: a number[] stack and a loop over the 3×3 offsets. */
function plainGlyphs(crop: GreyImage): Glyph[] {
  const t = Math.min(otsu(crop.data), (quantile(crop.data, 0.05) + quantile(crop.data, 0.5)) / 2);
  const { width: w, height: h } = crop;
  const ink = Uint8Array.from(crop.data, (v) => (v < t ? 1 : 0));
  const seen = new Uint8Array(w * h);
  const out: Glyph[] = [];
  for (let s = 0; s < ink.length; s++) {
    if (!ink[s] || seen[s]) continue;
    const g = { minX: w, maxX: 0, minY: h, maxY: 0, count: 0, edge: 0 };
    const stack = [s];
    seen[s] = 1;
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % w;
      const y = (p - x) / w;
      g.minX = Math.min(g.minX, x);
      g.maxX = Math.max(g.maxX, x);
      g.minY = Math.min(g.minY, y);
      g.maxY = Math.max(g.maxY, y);
      g.count++;
      if (
        x === 0 ||
        y === 0 ||
        x === w - 1 ||
        y === h - 1 ||
        !ink[p - 1] ||
        !ink[p + 1] ||
        !ink[p - w] ||
        !ink[p + w]
      )
        g.edge++;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
          const q = ny * w + nx;
          if (ink[q] && !seen[q]) {
            seen[q] = 1;
            stack.push(q);
          }
        }
    }
    out.push({
      x: g.minX,
      y: g.minY,
      w: g.maxX - g.minX + 1,
      h: g.maxY - g.minY + 1,
      ink: g.count,
      edge: g.edge,
    });
  }
  return out;
}

describe('tamper fast paths (second round) give the plain computations’ values', () => {
  it('transforms a screen tile to the same spectrum, bit for bit, as the row-then-column FFT', () => {
    const side = 128;
    const rand = rng(21);
    for (const kind of ['noise', 'grid', 'flat'] as const) {
      const re = new Float64Array(side * side);
      const im = new Float64Array(side * side);
      for (let y = 0; y < side; y++)
        for (let x = 0; x < side; x++) {
          const i = y * side + x;
          // Noise, an LCD-like periodic grid with colour fringes, and a flat tile with zeros.
          re[i] =
            kind === 'noise'
              ? rand() * 255 - 128
              : kind === 'grid'
                ? 40 * Math.sin(x * 2.1) * Math.cos(y * 1.7)
                : 0;
          im[i] = kind === 'noise' ? rand() * 60 - 30 : kind === 'grid' ? 12 * Math.sin(x * 2.1 + 1) : 0;
        }
      const pr = Float64Array.from(re);
      const pi = Float64Array.from(im);
      plainFft2d(pr, pi, side);
      tileSpectrum(re, im);
      expect(Array.from(re)).toEqual(Array.from(pr));
      expect(Array.from(im)).toEqual(Array.from(pi));
    }
  });

  it('finds the same glyph components as the plain flood fill', () => {
    const rand = rng(5);
    // Printed-like fields: dark strokes and blobs on a noisy light background, touching the
    // crop's edges, diagonal-only contacts, one-pixel-wide crops.
    for (const [w, h] of [
      [180, 40],
      [61, 23],
      [1, 30],
      [30, 1],
      [240, 66],
    ] as const) {
      const data = new Float32Array(w * h);
      for (let i = 0; i < data.length; i++) data[i] = 200 + rand() * 40;
      for (let s = 0; s < (w * h) / 60; s++) {
        const cx = Math.floor(rand() * w);
        const cy = Math.floor(rand() * h);
        const len = 1 + Math.floor(rand() * 12);
        const diagonal = rand() < 0.3;
        for (let k = 0; k < len; k++) {
          const x = diagonal ? cx + k : cx + (rand() < 0.5 ? k : 0);
          const y = diagonal ? cy + k : cy + (rand() < 0.5 ? 0 : k);
          if (x < w && y < h) data[y * w + x] = 20 + rand() * 30;
        }
      }
      const crop = { data, width: w, height: h };
      const plain = plainGlyphs(crop);
      if (w > 1 && h > 1) expect(plain.length).toBeGreaterThan(3);
      expect(glyphs(crop)).toEqual(plain);
    }
  });
});
