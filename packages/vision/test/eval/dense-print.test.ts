import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { generateDocument } from '../../scripts/synth/index.ts';
import { FILL_MIN_RING_TEXTURE } from '../../src/tamper/smooth-fill.ts';

/**
 * The evaluation's dense security print (synth/security-print.ts, `densePrint`): the same
 * document, its text and truth unchanged, with fine lines over the whole page, printed densely
 * enough for the cues that read a field's surroundings to find a pattern there (the in-painting
 * cues' bar, FILL_MIN_RING_TEXTURE), which the generator's sparse backgrounds seldom give.
 */

const options = { layout: 'passport-b', upright: true } as const;

/** Median |Laplacian| of the background: pixels 6 px or more from any field box or the portrait. */
async function backgroundTexture(image: Buffer, boxes: [number, number, number, number][]) {
  const { data, info } = await sharp(image).greyscale().raw().toBuffer({ resolveWithObject: true });
  const { width: w, height: h } = info;
  const values: number[] = [];
  for (let y = 1; y < h - 1; y += 2) {
    for (let x = 1; x < w - 1; x += 2) {
      if (boxes.some(([x0, y0, x1, y1]) => x >= x0 - 6 && x <= x1 + 6 && y >= y0 - 6 && y <= y1 + 6))
        continue;
      const i = y * w + x;
      values.push(Math.abs(4 * data[i]! - data[i - 1]! - data[i + 1]! - data[i - w]! - data[i + w]!));
    }
  }
  values.sort((a, b) => a - b);
  return values[values.length >> 1]!;
}

const boxesOf = (doc: Awaited<ReturnType<typeof generateDocument>>) => {
  const quads = [
    ...doc.truth.boxes.map((b) => b.quad),
    ...(doc.truth.portrait ? [doc.truth.portrait.quad] : []),
  ];
  return quads.map((q) => {
    const xs = q.map((p) => p[0]);
    const ys = q.map((p) => p[1]);
    return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] as [
      number,
      number,
      number,
      number,
    ];
  });
};

describe('dense security print for the evaluation', () => {
  it('keeps the document and its truth, and prints a pattern the field cues can judge', async () => {
    const seed = 3107;
    const plain = await generateDocument(seed, options);
    const dense = await generateDocument(seed, { ...options, densePrint: true });
    expect(dense.truth.boxes).toEqual(plain.truth.boxes);
    expect(dense.truth.printed).toEqual(plain.truth.printed);
    const boxes = boxesOf(plain);
    const before = await backgroundTexture(plain.image, boxes);
    const after = await backgroundTexture(dense.image, boxes);
    // The layout's own guilloche leaves most of the page flat paper; the dense print does not.
    expect(before).toBeLessThan(FILL_MIN_RING_TEXTURE);
    expect(after).toBeGreaterThanOrEqual(FILL_MIN_RING_TEXTURE);
  });
});
