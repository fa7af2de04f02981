import { describe, expect, it } from 'vitest';
import { downscaleGrey, toGrey } from '../../src/image/grey.ts';
import { type Quad, warpQuad } from '../../src/image/raster.ts';
import { quantile } from '../../src/image/stats.ts';
import { workingGrey } from '../../src/tamper/capture.ts';
import { grow2 } from '../../src/tamper/near-ink.ts';
import { INSIDE, RegionSamples } from '../../src/tamper/region-samples.ts';
import { warpQuadGrey } from '../../src/tamper/straighten.ts';
import { colourDocument, rng } from './synthetic.ts';

/**
 * The tamper step's shortcuts must measure exactly what the plain computations measure: the
 * thresholds next to each detector were set on those values.
 */
describe("tamper fast paths give the plain computations' values", () => {
  const doc = colourDocument(900, 560, 11);

  it('straightens a tilted field to the same grey as warpQuad then toGrey', () => {
    const quads: Quad[] = [
      [
        [101.3, 80.2],
        [402.7, 95.9],
        [400.1, 131.4],
        [99.6, 116.8],
      ],
      // A perspective quad reaching past the picture's edge (clamped samples).
      [
        [-12.5, 300.4],
        [880.2, 290.1],
        [905.3, 351.7],
        [-20.1, 365.2],
      ],
    ];
    for (const q of quads) {
      const plain = toGrey(warpQuad(doc, q, 310, 44));
      const fast = warpQuadGrey(doc, q, 310, 44);
      expect(fast.width).toBe(plain.width);
      expect(fast.height).toBe(plain.height);
      expect(Array.from(fast.data)).toEqual(Array.from(plain.data));
    }
  });

  it('reduces the colour pixels to the same working grey as the full-size grey would', () => {
    const large = colourDocument(1700, 1000, 5);
    const plain = downscaleGrey(toGrey(large), Math.max(large.width, large.height) / 800);
    const fast = workingGrey(large);
    expect(fast.width).toBe(plain.width);
    expect(Array.from(fast.data)).toEqual(Array.from(plain.data));
    expect(Array.from(workingGrey(large, toGrey(large)).data)).toEqual(Array.from(plain.data));
  });

  it('splits ring samples by region, each region keeping its values', () => {
    const rand = rng(3);
    const draws = Array.from({ length: 500 }, () => ({
      region: Math.floor(rand() * 5),
      value: Math.round(rand() * 255 * 100) / 100,
    }));
    const expected: number[][] = [[], [], [], [], []];
    for (const { region, value } of draws) expected[region]!.push(value);
    // Each region's capacity: its count, one region's with room to spare.
    const samples = new RegionSamples(expected.map((e, k) => e.length + (k === 2 ? 7 : 0)));
    for (const { region, value } of draws) samples.add(region, value);
    const regions = samples.split();
    expect(regions).toHaveLength(5);
    regions.forEach((r, k) => {
      expect(Array.from(r)).toEqual(expected[k]);
      if (r.length) expect(quantile(r, 0.75)).toBe(quantile(expected[k]!, 0.75));
    });
    expect(regions[INSIDE]!.length).toBe(expected[INSIDE]!.length);
  });

  it('grows an ink mask by 2 px as the plain 5×5 neighbourhood test does', () => {
    const rand = rng(9);
    // Sizes below, at and above the 5-pixel window, sparse and dense ink.
    for (const [W, H, density] of [
      [37, 23, 0.02],
      [64, 41, 0.2],
      [3, 9, 0.1],
      [9, 2, 0.3],
      [1, 1, 1],
    ] as const) {
      const mask = Uint8Array.from({ length: W * H }, () => (rand() < density ? 1 : 0));
      const plain = new Uint8Array(W * H);
      for (let y = 0; y < H; y++)
        for (let x = 0; x < W; x++)
          for (let dy = -2; dy <= 2; dy++)
            for (let dx = -2; dx <= 2; dx++) {
              const yy = y + dy;
              const xx = x + dx;
              if (yy >= 0 && yy < H && xx >= 0 && xx < W && mask[yy * W + xx]) plain[y * W + x] = 1;
            }
      expect(Array.from(grow2(mask, W, H))).toEqual(Array.from(plain));
    }
  });
});
