import { describe, expect, it } from 'vitest';
import { documentPhoto, HOLDER } from '../../../../test/support/documents.ts';
import { normalizeImage } from '../../src/image/normalize.ts';
import { readDocument } from '../../src/read-document.ts';
import { fieldFontDeviation, GLYPH_HEIGHT_TOLERANCE } from '../../src/tamper/font-consistency.ts';

const SLOW = { timeout: 240_000 };

/**
 * A card back prints `Date d'expiration : <date>`; the reader glues the label's colon to the value
 * and the value's box, padded by one line height on each side (read-document.ts fieldBox), takes
 * in the label's last letter: a lowercase `n` on the baseline, which the height cue must not count.
 */
describe('font_inconsistency on a value printed after its label', () => {
  it(
    'does not count the label letter in the box margin, and still sees it without the margin rule',
    SLOW,
    async () => {
      const holder = { ...HOLDER, number: '12345678901234567' };
      const front = await normalizeImage(await documentPhoto('cni_front', holder, { mrzFont: 'ocr-b' }));
      const back = await normalizeImage(await documentPhoto('cni_back', holder, { mrzFont: 'ocr-b' }));
      const reading = await readDocument({ front, back });
      const box = reading.fieldBoxes.find((b) => b.field === 'date_of_expiry' && b.side === 'back');
      expect(box).toBeDefined();
      const xs = box!.quad.map((p) => p[0]);
      const ys = box!.quad.map((p) => p[1]);
      const rect = {
        x: Math.min(...xs),
        y: Math.min(...ys),
        w: Math.max(...xs) - Math.min(...xs),
        h: Math.max(...ys) - Math.min(...ys),
        quad: box!.quad,
      };
      const judged = fieldFontDeviation(back, rect, undefined, { paddedByHeight: true });
      const naive = fieldFontDeviation(back, rect, undefined, { paddedByHeight: false });
      expect(judged.height).not.toBeNull();
      expect(judged.height!).toBeLessThan(GLYPH_HEIGHT_TOLERANCE);
      // Without the rule the same box measures past the tolerance: the test sees the case it guards.
      expect(naive.height!).toBeGreaterThan(GLYPH_HEIGHT_TOLERANCE);
    },
  );
});
