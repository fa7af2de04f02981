import { describe, expect, it } from 'vitest';
import type { NormalizedImage } from '../../src/image/normalize.ts';
import { type Box, rgbImage } from '../../src/image/raster.ts';
import { quantile } from '../../src/image/stats.ts';
import { glareFraction } from '../../src/tamper/capture.ts';
import {
  fieldBackgroundContrast,
  RING_SPANS_MAX,
  ringGap,
  ringRegionSizes,
  ringSpans,
  straightenedWithRing,
} from '../../src/tamper/field-background.ts';
import { valueSpan, WORD_GAP } from '../../src/tamper/font-consistency.ts';
import type { Glyph } from '../../src/tamper/glyphs.ts';
import { colourSpread } from '../../src/tamper/photocopy.ts';
import { INSIDE, RegionSamples } from '../../src/tamper/region-samples.ts';
import type { Region } from '../../src/tamper/types.ts';
import { colourDocument, greyCopy, rng } from './synthetic.ts';

/**
 * The third round of tamper fast paths, each held to the plain computation it replaced, value
 * for value (the detectors' thresholds were set on those values).
 */

/**
 * The ring's definition pixel by pixel (what the field cues computed per pixel before ringSpans):
 * where a canvas pixel lies around a field box: inside it (INSIDE), in one of the four ring parts
 * (0 above, 1 below, 2 before, 3 after), or null in the gap between the box and its ring.
 */
function ringRegion(x: number, y: number, inner: Box, gap: number): number | null {
  const out = Math.max(inner.x - x, x - (inner.x + inner.w - 1), inner.y - y, y - (inner.y + inner.h - 1));
  if (out > 0 && out <= gap) return null;
  if (y < inner.y) return 0;
  if (y >= inner.y + inner.h) return 1;
  if (x < inner.x) return 2;
  if (x >= inner.x + inner.w) return 3;
  return INSIDE;
}

/** ringSpans' spans of one row, expanded back to one region (or null) per column. */
function regionsFromSpans(y: number, x0: number, x1: number, inner: Box, gap: number): (number | null)[] {
  const spans = new Int32Array(RING_SPANS_MAX * 3);
  const n = ringSpans(y, x0, x1, inner, gap, spans);
  const out: (number | null)[] = new Array(x1 - x0).fill(null);
  let last = x0;
  for (let s = 0; s < n; s++) {
    const [region, start, end] = [spans[3 * s]!, spans[3 * s + 1]!, spans[3 * s + 2]!];
    // In increasing x, never overlapping, never empty.
    expect(start).toBeGreaterThanOrEqual(last);
    expect(end).toBeGreaterThan(start);
    last = end;
    for (let x = start; x < end; x++) out[x - x0] = region;
  }
  return out;
}

/** The lower nearest rank by sorting (the definition quantile() keeps). */
function sortedRank(values: number[], q: number): number {
  const s = Float64Array.from(values).sort();
  return s[Math.min(s.length - 1, Math.max(0, Math.floor(q * (s.length - 1))))]!;
}

/**
 * colourSpread as first written: a distance (with its root) per sample, ranks by sorting; weighted
 * by brightness (photocopy.ts BRIGHT_SUM, 600) or not.
 */
function plainColourSpread(image: NormalizedImage, region: Region, weighted: boolean): number {
  const { rgb, width } = image;
  const step = Math.max(1, Math.floor(Math.sqrt((region.w * region.h) / 200_000)));
  const distances: number[] = [];
  for (let by = 0; by < 4; by++) {
    for (let bx = 0; bx < 4; bx++) {
      const rs: number[] = [];
      const gs: number[] = [];
      const sums: number[] = [];
      for (
        let y = Math.floor(region.y + (region.h * by) / 4);
        y < Math.floor(region.y + (region.h * (by + 1)) / 4);
        y += step
      ) {
        for (
          let x = Math.floor(region.x + (region.w * bx) / 4);
          x < Math.floor(region.x + (region.w * (bx + 1)) / 4);
          x += step
        ) {
          const [r, g, b] = [
            rgb[(y * width + x) * 3]!,
            rgb[(y * width + x) * 3 + 1]!,
            rgb[(y * width + x) * 3 + 2]!,
          ];
          if (r + g + b < 120 || r > 250 || g > 250 || b > 250) continue;
          rs.push(r / (r + g + b));
          gs.push(g / (r + g + b));
          sums.push(r + g + b);
        }
      }
      if (rs.length < 30) continue;
      const [mr, mg] = [sortedRank(rs, 0.5), sortedRank(gs, 0.5)];
      for (const [i, r] of rs.entries()) {
        const levels = weighted ? sums[i]! / 600 : 1;
        const [dr, dg] = [(r - mr) * levels, (gs[i]! - mg) * levels];
        distances.push(Math.sqrt(dr * dr + dg * dg));
      }
    }
  }
  return distances.length < 500 ? Number.NaN : sortedRank(distances, 0.9);
}

/** valueSpan as first written: each word's rightmost ink and capitals found again per glyph. */
function plainValueSpan(letters: Glyph[], capitals: Glyph[], capitalAt: (g: Glyph) => number) {
  const sorted = [...letters].sort((a, b) => a.x - b.x);
  const isCapital = new Set(capitals);
  let [from, to] = [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
  let word: Glyph[] = [];
  const close = () => {
    if (word.some((g) => isCapital.has(g))) {
      from = Math.min(from, word[0]!.x);
      to = Math.max(to, ...word.map((g) => g.x + g.w));
    }
    word = [];
  };
  for (const g of sorted) {
    const last = word[word.length - 1];
    if (last && g.x - Math.max(...word.map((w) => w.x + w.w)) > WORD_GAP * capitalAt(last)) close();
    word.push(g);
  }
  close();
  const centre = (g: Glyph) => g.x + g.w / 2;
  const before = sorted.filter((g) => centre(g) < from).length;
  const after = sorted.filter((g) => centre(g) > to).length;
  return {
    from: before >= 2 ? from : Number.NEGATIVE_INFINITY,
    to: after >= 2 ? to : Number.POSITIVE_INFINITY,
  };
}

describe('tamper fast paths (third round) give the plain computations’ values', () => {
  it('cuts ring rows into spans that give every column the region ringRegion gives it', () => {
    const rand = rng(17);
    for (let t = 0; t < 400; t++) {
      const inner = {
        x: Math.floor(rand() * 30),
        y: Math.floor(rand() * 30),
        w: Math.floor(rand() * 40),
        h: Math.floor(rand() * 20),
      };
      const gap = Math.floor(rand() * 8);
      // Column ranges that start and end anywhere: before, inside and beyond the box and its gap.
      const x0 = Math.floor(rand() * 40) - 5;
      const x1 = x0 + Math.floor(rand() * 90);
      for (let y = -3; y < 60; y++) {
        const plain: (number | null)[] = [];
        for (let x = x0; x < x1; x++) plain.push(ringRegion(x, y, inner, gap));
        expect(regionsFromSpans(y, x0, x1, inner, gap)).toEqual(plain);
      }
      // The regions' sizes over a block of rows: what a RegionSamples is made with.
      const sizes = [0, 0, 0, 0, 0];
      for (let y = -3; y < 60; y++)
        for (let x = x0; x < x1; x++) {
          const region = ringRegion(x, y, inner, gap);
          if (region !== null) sizes[region]!++;
        }
      expect(ringRegionSizes(-3, 60, x0, x1, inner, gap)).toEqual(sizes);
    }
  });

  it('measures a field’s background tone difference as the per-pixel ring walk does', () => {
    const doc = colourDocument(900, 560, 13);
    const quads: [number, number][][] = [
      [
        [262.4, 55.1],
        [590.3, 61.7],
        [589.2, 88.9],
        [261.1, 82.6],
      ],
      [
        [270, 135],
        [595, 135],
        [595, 172],
        [270, 172],
      ],
    ];
    for (const quad of quads) {
      const ring = straightenedWithRing(doc, quad);
      const { canvas, inner, margin } = ring;
      const gap = ringGap(inner.h);
      const samples = new RegionSamples(new Array(5).fill(canvas.width * canvas.height));
      for (let y = inner.y - margin; y < inner.y + inner.h + margin; y++)
        for (let x = inner.x - margin; x < inner.x + inner.w + margin; x++) {
          const region = ringRegion(x, y, inner, gap);
          if (region !== null) samples.add(region, canvas.data[y * canvas.width + x]!);
        }
      const regions = samples.split();
      const toneIn = quantile(regions[INSIDE]!, 0.75);
      const plain = Math.min(...regions.slice(0, INSIDE).map((p) => Math.abs(toneIn - quantile(p, 0.75))));
      const box = { x: quad[0]![0], y: quad[0]![1], w: 300, h: 30, quad };
      expect(fieldBackgroundContrast(null, box, doc, ring)).toEqual({ toneDiff: plain });
    }
  });

  it('measures the colour spread as a root per sample and sorting would', () => {
    const doc = colourDocument(1200, 760, 19);
    const windows: Region[] = [
      { x: 240, y: 152, w: 720, h: 456 },
      { x: 0, y: 0, w: 1200, h: 760 },
      { x: 101.5, y: 77.25, w: 333.3, h: 250.9 },
    ];
    for (const image of [doc, greyCopy(doc)])
      for (const window of windows)
        for (const weighted of [true, false]) {
          const plain = plainColourSpread(image, window, weighted);
          expect(Number.isNaN(plain)).toBe(false);
          expect(colourSpread(image, window, weighted)).toBe(plain);
        }
  });

  it('finds the largest compact clipped blob off the border, with one array for mask and marks', () => {
    // Grey paper with white shapes: two round blobs (the larger one counts), a long thin band
    // (paper of a form, not glare), a blob touching the border, and two blobs touching each other
    // diagonally only (4-neighbour fill: two components).
    const [w, h] = [420, 300];
    const rgb = new Uint8Array(w * h * 3).fill(128);
    const white = (x: number, y: number) => rgb.fill(255, (y * w + x) * 3, (y * w + x) * 3 + 3);
    let large = 0;
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        if ((x - 80) ** 2 + (y - 80) ** 2 <= 15 ** 2) white(x, y);
        if ((x - 200) ** 2 + (y - 150) ** 2 <= 26 ** 2) {
          white(x, y);
          large++;
        }
        if (x >= 100 && x < 400 && y >= 250 && y < 256) white(x, y);
        if (x < 40 && y >= 120 && y < 200) white(x, y);
        // Two 30 × 30 squares meeting at one corner: 900 pixels each, not one blob of 1800.
        if ((x >= 300 && x < 330 && y >= 40 && y < 70) || (x >= 330 && x < 360 && y >= 70 && y < 100))
          white(x, y);
      }
    expect(large).toBeGreaterThan(1800);
    expect(glareFraction(rgbImage(rgb, w, h))).toBe(large / (w * h));
  });

  it('finds a value’s words along a field as the per-glyph walk does', () => {
    const rand = rng(29);
    for (let t = 0; t < 300; t++) {
      // Glyphs along a line: words of capitals, lowercase labels, overlapping specks, varied gaps.
      const letters: Glyph[] = [];
      let x = Math.floor(rand() * 10);
      for (let i = 0, n = 3 + Math.floor(rand() * 40); i < n; i++) {
        const h = rand() < 0.6 ? 20 : 8 + Math.floor(rand() * 10);
        const w = 2 + Math.floor(rand() * 14);
        letters.push({ x, y: 30 - h, w, h, ink: w * h, edge: 2 * (w + h) });
        x += Math.floor(rand() * 20) - (rand() < 0.2 ? 12 : 0);
      }
      const capitals = letters.filter((g) => g.h === 20);
      const capitalAt = (g: Glyph) => 19 + g.x / 200;
      expect(valueSpan(letters, capitals, capitalAt)).toEqual(plainValueSpan(letters, capitals, capitalAt));
    }
  });
});
