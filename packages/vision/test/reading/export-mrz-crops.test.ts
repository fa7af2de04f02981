import { describe, expect, it } from 'vitest';
import { cropTruncated, exportCaptureOptions } from '../../scripts/eval/export-mrz-crops.ts';
import { corpus } from '../../scripts/synth/index.ts';

/**
 * The crop export's `--hard-share` (training/mrz stage 4): a seeded share of the corpus's
 * documents is captured at the `hard` level (small, blurred photos), every other choice of the
 * corpus (kind, composite, scan, split) stays as it was, and the draw is the same on every run.
 * `--filler-glyph-share` (stage 6) draws another share's fillers K-like, on a stream of its own.
 */
describe('exportCaptureOptions', () => {
  const items = [...corpus(400, 41, 'tuning')];

  it('leaves every item as the corpus drew it without a hard share', () => {
    for (const item of items) expect(exportCaptureOptions(item)).toEqual(item.options);
  });

  it('captures about the asked share at the hard level and changes nothing else', () => {
    const out = items.map((item) => exportCaptureOptions(item, 0.7));
    const hard = out.filter((o) => o.level === 'hard').length / items.length;
    // The corpus alone gives 15 % hard; a 0.7 share of the rest lifts it to about 0.745.
    expect(hard).toBeGreaterThan(0.68);
    expect(hard).toBeLessThan(0.81);
    for (const [i, o] of out.entries()) {
      const { level: _l, ...rest } = o;
      const { level: _c, ...corpusRest } = items[i]!.options;
      expect(rest).toEqual(corpusRest);
      if (o.level !== 'hard') expect(o).toEqual(items[i]!.options);
    }
  });

  it('draws the same items on every run, and more of them for a larger share', () => {
    const hardAt = (share: number) => items.map((item) => exportCaptureOptions(item, share).level === 'hard');
    expect(hardAt(0.4)).toEqual(hardAt(0.4));
    // One uniform draw per item: every item hard at 0.4 is hard at 0.7 too.
    const low = hardAt(0.4);
    const high = hardAt(0.7);
    for (const [i, h] of low.entries()) if (h) expect(high[i]).toBe(true);
  });

  it("draws a share's fillers in another printer's shape, independently of the hard draw", () => {
    const hardOnly = items.map((item) => exportCaptureOptions(item, 0.5).level);
    const both = items.map((item) => exportCaptureOptions(item, 0.5, 0.5));
    const glyph = both.filter((o) => o.fillerGlyph).length / items.length;
    expect(glyph).toBeGreaterThan(0.42);
    expect(glyph).toBeLessThan(0.58);
    // The hard draw is the same with or without the filler share (its own stream).
    expect(both.map((o) => o.level)).toEqual(hardOnly);
    // Hard and K-like fillers are drawn apart: both kinds of document occur with and without the other.
    expect(both.some((o) => o.fillerGlyph && o.level === 'hard')).toBe(true);
    expect(both.some((o) => o.fillerGlyph && o.level !== 'hard')).toBe(true);
    for (const [i, o] of both.entries()) {
      const { level: _l, fillerGlyph: _f, ...rest } = o;
      const { level: _c, ...corpusRest } = items[i]!.options;
      expect(rest).toEqual(corpusRest);
    }
  });
});

/**
 * The export's `--drop-truncated` (training/mrz stage 5): a crop whose glyphs reach a side of
 * the crop was cut inside the text; a straight vertical edge at a side (the card's border) is
 * not a cut glyph.
 */
describe('cropTruncated', () => {
  const H = 32;
  const W = 120;
  /** A light 32-px crop with dark "glyphs" (7 columns wide, every 10 columns from x0), cut at x1. */
  function crop(x0: number, x1: number): Float32Array {
    const data = new Float32Array(H * W).fill(0.85);
    for (let g = x0; g + 1 <= x1; g += 10)
      for (let y = 9; y < 23; y++) for (let x = g; x < Math.min(g + 7, x1); x++) data[y * W + x] = 0.15;
    return data;
  }

  it('keeps a crop whose glyphs end inside its margins', () => {
    expect(cropTruncated({ data: crop(10, 107), width: W })).toBe(false);
  });

  it('drops a crop whose glyphs run into its right or left side', () => {
    expect(cropTruncated({ data: crop(14, W), width: W })).toBe(true);
    expect(cropTruncated({ data: crop(0, 100), width: W })).toBe(true);
  });

  it('keeps a crop with a straight dark edge over its whole height at a side', () => {
    const data = crop(10, 107);
    for (let y = 0; y < H; y++) data[y * W] = 0.1;
    expect(cropTruncated({ data, width: W })).toBe(false);
  });

  it('keeps a crop without ink', () => {
    expect(cropTruncated({ data: new Float32Array(H * W).fill(0.8), width: W })).toBe(false);
  });
});
