import { describe, expect, it } from 'vitest';
import { fixtureLikeSource } from '../../scripts/eval/corpus/export-portrait.ts';
import { synthSource } from '../../scripts/eval/corpus/synth-sources.ts';

/**
 * The portrait-swap model's fixture-like training pages (export-portrait.ts `fixtureLikeSource`),
 * on synthetic documents drawn under a seed name (`test-fl`) neither the export nor the
 * evaluation uses. Each page is drawn, and half of them photographed and searched for a face:
 * seconds each, more when the machine is loaded.
 */
const SLOW = { timeout: 300_000 };

describe('fixture-like training pages', () => {
  it(
    'frames the head as an identity photo does; a photographed page keeps only the face the detector finds',
    SLOW,
    async () => {
      let kept = 0;
      let photographed = 0;
      for (let i = 0; i < 6; i++) {
        const drawn = await synthSource('tuning', i, 'test-fl');
        const page = await fixtureLikeSource(drawn);
        if (!page) continue;
        expect(page.name).toBe(drawn.name);
        if (page.boxes.photo) {
          // Drawn as it is, its head enlarged: the face takes a larger share of the same photo.
          kept++;
          expect(page.boxes.photo).toEqual(drawn.boxes.photo);
          const before = drawn.boxes.portrait!.w / drawn.boxes.photo!.w;
          const after = page.boxes.portrait!.w / page.boxes.photo.w;
          expect(after / before).toBeGreaterThanOrEqual(1.19);
          expect(page.image.width).toBe(drawn.image.width);
        } else {
          // Photographed as the fixtures are: an upload's size, the photo's extent unknown, the
          // face the service's detector finds (from 40 px, as the evaluation keeps a fixture's).
          photographed++;
          expect(Math.max(page.image.width, page.image.height)).toBeLessThanOrEqual(1600);
          expect(page.boxes.portrait!.w).toBeGreaterThanOrEqual(40);
          expect(page.boxes.fields).toEqual([]);
        }
      }
      expect(kept).toBeGreaterThan(0);
      expect(photographed).toBeGreaterThan(0);
      // Seeded by the source's name: the same page on every call.
      const again = await fixtureLikeSource(await synthSource('tuning', 0, 'test-fl'));
      const first = await fixtureLikeSource(await synthSource('tuning', 0, 'test-fl'));
      expect(Buffer.from(again!.image.rgb).equals(Buffer.from(first!.image.rgb))).toBe(true);
    },
  );
});
