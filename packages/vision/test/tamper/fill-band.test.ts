import { afterEach, describe, expect, it } from 'vitest';
import type { NormalizedImage } from '../../src/image/normalize.ts';
import { straightenedWithRing } from '../../src/tamper/field-background.ts';
import { FILL_BAND_MIN_SIDES, fillBandStrength, measureFillBand } from '../../src/tamper/fill-band.ts';
import { detectTamper } from '../../src/tamper/index.ts';
import {
  FILL_MAX_TEXTURE_RATIO,
  FILL_MIN_RING_TEXTURE,
  measureFillTexture,
} from '../../src/tamper/smooth-fill.ts';
import { inpaintedLine } from '../support/forgeries.ts';
import { patternedLinesPage } from './synthetic.ts';

/**
 * The fill band of `field_overwritten` on a synthetic page: a text line on a fine printed
 * pattern, erased with a margin of 0.6 line heights around it by in-painting and typed again.
 * The fill swallows the ring the in-painting cue compares with (smooth-fill.ts: that cue sees a
 * plain ring and says nothing); the band cue sees the smooth near band and the pattern beyond.
 */

const [W, H] = [640, 320];
const LINE: [number, number][] = [
  [120, 150],
  [480, 150],
  [480, 178],
  [120, 178],
];

function page(pattern: boolean): NormalizedImage {
  return patternedLinesPage(W, H, [LINE], pattern, 5);
}

/** The line's near and far bands, measured on its ring canvas as the tamper step does. */
const bandOf = (image: NormalizedImage) => measureFillBand(image, LINE, straightenedWithRing(image, LINE))!;

/** The line in-painted over its box grown by 0.6 of its height, the letters typed back. */
const inpainted = (image: NormalizedImage) => inpaintedLine(image, LINE, 0.6, 40);

const overwritten = async (image: NormalizedImage) =>
  (
    await detectTamper(
      { front: image },
      { layout: 'td1', portrait: null, lineBoxes: [{ side: 'front', text: 'AHMETAJ', quad: LINE }] },
    )
  ).signals.filter((s) => s.type === 'field_overwritten');

describe('field_overwritten: a band of in-painting around a line', () => {
  // The cue is on by default (opt-in-cues.ts); a test turning it off puts it back after.
  afterEach(() => {
    delete process.env.IDV_TAMPER_FILL_BAND;
  });

  it('finds the pattern on every side of an untouched line, as near as far', async () => {
    const band = bandOf(page(true));
    for (const [near, far] of band.sides) {
      expect(far!).toBeGreaterThanOrEqual(FILL_MIN_RING_TEXTURE);
      expect(near! / far!).toBeGreaterThan(FILL_MAX_TEXTURE_RATIO);
    }
    expect(fillBandStrength(band)).toBeNull();
    expect(await overwritten(page(true))).toEqual([]);
  });

  it('flags a line in-painted with a margin, which the in-painting cue alone misses', async () => {
    const forged = inpainted(page(true));
    // The ring lies inside the fill: plain, so the in-painting cue does not judge the line.
    expect(measureFillTexture(forged, LINE)!.ring).toBeLessThan(FILL_MIN_RING_TEXTURE);
    const band = bandOf(forged);
    const judged = band.sides.filter(([, far]) => far !== null && far >= FILL_MIN_RING_TEXTURE);
    expect(judged.length).toBeGreaterThanOrEqual(FILL_BAND_MIN_SIDES);
    for (const [near, far] of judged) expect(near! / far!).toBeLessThan(FILL_MAX_TEXTURE_RATIO);
    const signs = await overwritten(forged);
    expect(signs).toHaveLength(1);
    // A review, never a fail on its own (a genuine line in a plain panel looks the same).
    expect(signs[0]!.severity).toBe('medium');
    // On by default; IDV_TAMPER_FILL_BAND=0 turns it off (to measure the step without it).
    process.env.IDV_TAMPER_FILL_BAND = '0';
    expect(await overwritten(forged)).toEqual([]);
  });

  it('does not judge a line on plain paper, where a fill leaves nothing to see', async () => {
    const plain = bandOf(inpainted(page(false)));
    expect(fillBandStrength(plain)).toBeNull();
    expect(await overwritten(inpainted(page(false)))).toEqual([]);
  });

  it('needs three patterned sides: one patterned side is no band', () => {
    const oneSide = {
      sides: [
        [0.5, 10],
        [null, null],
        [0.5, 2],
        [1, 3],
      ] as [number | null, number | null][],
    };
    expect(fillBandStrength(oneSide)).toBeNull();
    const three = {
      sides: [
        [0.5, 10],
        [0.5, 10],
        [0.5, 10],
        [null, null],
      ] as [number | null, number | null][],
    };
    expect(fillBandStrength(three)).toBeGreaterThan(0);
  });
});
