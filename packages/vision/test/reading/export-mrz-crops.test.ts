import { describe, expect, it } from 'vitest';
import { exportCaptureOptions } from '../../scripts/eval/export-mrz-crops.ts';
import { corpus } from '../../scripts/synth/index.ts';

/**
 * The crop export's `--hard-share` (training/mrz stage 4): a seeded share of the corpus's
 * documents is captured at the `hard` level (small, blurred photos), every other choice of the
 * corpus (kind, composite, scan, split) stays as it was, and the draw is the same on every run.
 */
describe('exportCaptureOptions', () => {
  const items = [...corpus(400, 41, 'tuning')];

  it('leaves every item as the corpus drew it without a hard share', () => {
    for (const item of items) expect(exportCaptureOptions(item)).toBe(item.options);
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
      if (o.level !== 'hard') expect(o).toBe(items[i]!.options);
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
});
