import { describe, expect, it } from 'vitest';
import type { NormalizedImage } from '../../src/image/normalize.ts';
import { fieldFontDeviation, GLYPH_HEIGHT_TOLERANCE } from '../../src/tamper/font-consistency.ts';
import { box, SIZE, typed } from './typed-line.ts';

/**
 * A value that ends its line (most names and dates) gets no padding after it from the reading
 * step (read-document.ts fieldBox: not past the line's end), so its last glyphs lie at the box's
 * end. The height cue sets aside shorter glyphs only in the margins the box really has: a
 * smaller glyph substituted near the value's end is judged (the generated tuning draw missed
 * such substitutions when both ends were taken as padded, docs/benchmarks.md issue 14).
 */

/** The box from the field's left edge to 2 px past the value's last ink. */
function boxToInkEnd(image: NormalizedImage) {
  let last = 0;
  for (let x = 0; x < image.width; x++)
    for (let y = box.y; y < box.y + box.h; y++) if (image.rgb[(y * image.width + x) * 3]! < 128) last = x;
  return { ...box, w: last + 3 - box.x };
}

const FORGED = [{ text: 'DIALL' }, { text: 'O', size: SIZE * 0.75, weight: 'normal' }];

describe('font_inconsistency at the end of a line', () => {
  it('judges a smaller glyph among the last ones when the box has no margin after the value', async () => {
    const image = await typed(FORGED);
    const field = boxToInkEnd(image);
    const measured = fieldFontDeviation(image, field, undefined, { margins: [0.1, 0] });
    expect(measured.height!).toBeGreaterThan(GLYPH_HEIGHT_TOLERANCE);
    // Taken as padded at both ends, the same glyph stands in the margin and is set aside.
    const padded = fieldFontDeviation(image, field, undefined, { paddedByHeight: true });
    expect(padded.height!).toBeLessThan(GLYPH_HEIGHT_TOLERANCE);
  });

  it('finds no break in a genuine value ending its line', async () => {
    const image = await typed([{ text: 'DIALLO' }]);
    const measured = fieldFontDeviation(image, boxToInkEnd(image), undefined, { margins: [0.1, 0] });
    expect(measured.height!).toBeLessThan(GLYPH_HEIGHT_TOLERANCE);
  });
});
