import { describe, expect, it } from 'vitest';
import type { NormalizedImage } from '../../src/image/normalize.ts';
import { detectTamper } from '../../src/tamper/index.ts';
import {
  FILL_MAX_TEXTURE_RATIO,
  FILL_MIN_RING_TEXTURE,
  measureFillTexture,
  parseLineBoxes,
} from '../../src/tamper/smooth-fill.ts';
import { inpaintedLine } from '../support/forgeries.ts';
import { patternedLinesPage } from './synthetic.ts';

/**
 * The in-painting cue of `field_overwritten` on a synthetic page: two text lines on a fine
 * printed pattern (±12 grey levels, like microprint or guilloche behind the fields). One line
 * erased by in-painting and typed again raises the sign; the untouched page, and the same edit on
 * plain paper (nothing to lose), do not.
 */

const [W, H] = [640, 300];
const LINES: [number, number][][] = [
  [
    [100, 90],
    [500, 90],
    [500, 118],
    [100, 118],
  ],
  [
    [100, 190],
    [460, 190],
    [460, 218],
    [100, 218],
  ],
];

function page(pattern: boolean): NormalizedImage {
  return patternedLinesPage(W, H, LINES, pattern, 11);
}

const lineBoxes = LINES.map((quad, k) => ({ side: 'front', text: k ? 'AFRIM' : 'AHMETAJ', quad }));
const overwritten = async (image: NormalizedImage) =>
  (await detectTamper({ front: image }, { layout: 'td1', portrait: null, lineBoxes })).signals.filter(
    (s) => s.type === 'field_overwritten',
  );

describe('field_overwritten: a line in-painted and typed again', () => {
  it('keeps the print behind untouched lines', async () => {
    const clean = page(true);
    for (const quad of LINES) {
      const t = measureFillTexture(clean, quad)!;
      expect(t.ring).toBeGreaterThanOrEqual(FILL_MIN_RING_TEXTURE);
      expect(t.inside / t.ring).toBeGreaterThan(FILL_MAX_TEXTURE_RATIO);
    }
    expect(await overwritten(clean)).toEqual([]);
  });

  it('flags the one line whose background was filled smoothly', async () => {
    const forged = inpaintedLine(page(true), LINES[1]!);
    const t = measureFillTexture(forged, LINES[1]!)!;
    expect(t.inside / t.ring).toBeLessThan(FILL_MAX_TEXTURE_RATIO);
    const signs = await overwritten(forged);
    expect(signs).toHaveLength(1);
    expect(signs[0]!.severity).toBe('high');
  });

  it('leaves a line as soon as a plain ring part shows, and measures the others in full', () => {
    const forged = inpaintedLine(page(true), LINES[1]!);
    for (const image of [page(true), forged])
      for (const quad of LINES)
        expect(measureFillTexture(image, quad, undefined, FILL_MIN_RING_TEXTURE)).toEqual(
          measureFillTexture(image, quad),
        );
    for (const quad of LINES) {
      expect(measureFillTexture(page(false), quad)!.ring).toBeLessThan(FILL_MIN_RING_TEXTURE);
      expect(measureFillTexture(page(false), quad, undefined, FILL_MIN_RING_TEXTURE)).toBeNull();
    }
  });

  it('does not judge lines on plain paper, where in-painting leaves nothing to see', async () => {
    expect(await overwritten(inpaintedLine(page(false), LINES[1]!))).toEqual([]);
  });

  it('only takes read lines with a quad and at least two letters or digits', () => {
    const quad = LINES[0]!;
    expect(
      parseLineBoxes([
        { side: 'front', text: 'AB', quad },
        { side: 'front', text: '<', quad },
        { side: 'back', text: 'XY' },
        { side: 'left', text: 'XY', quad },
        null,
      ]),
    ).toHaveLength(1);
  });
});
