import { describe, expect, it } from 'vitest';
import type { Box } from '../../src/image/raster.ts';
import { quantile } from '../../src/image/stats.ts';
import {
  fieldBackgroundContrast,
  RING_SPANS_MAX,
  ringGap,
  ringRegion,
  ringSpans,
  straightenedWithRing,
} from '../../src/tamper/field-background.ts';
import { INSIDE, RegionSamples } from '../../src/tamper/region-samples.ts';
import { colourDocument, rng } from './synthetic.ts';

/**
 * The third round of tamper fast paths, each held to the plain computation it replaced, value
 * for value (the detectors' thresholds were set on those values).
 */

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
      const samples = new RegionSamples(canvas.width * canvas.height);
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
});
