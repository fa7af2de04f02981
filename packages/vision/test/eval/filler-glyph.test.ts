import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { generateDocument } from '../../scripts/synth/index.ts';

/**
 * The synthetic benchmark's evaluation options for fillers read as K (synth/filler-glyph.ts):
 * off, a document is drawn as before; on, only the MRZ's fillers are drawn otherwise (the truth
 * and every other pixel's source unchanged); K-rich names hold a K.
 */

const upright = { kind: 'sahel_card', upright: true, split: 'tuning' } as const;

async function grey(image: Buffer) {
  const { data, info } = await sharp(image).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

describe('filler glyphs drawn as other printers print them', () => {
  it('changes only the MRZ, never the truth, and nothing when off', async () => {
    const seed = 4242;
    const plain = await generateDocument(seed, upright);
    const again = await generateDocument(seed, { ...upright, fillerGlyph: false });
    expect(Buffer.compare(plain.back!.image, again.back!.image)).toBe(0);
    const drawn = await generateDocument(seed, { ...upright, fillerGlyph: true });
    expect(drawn.back!.truth.mrz).toEqual(plain.back!.truth.mrz);
    // The front (no MRZ) is the same picture; the back differs, inside the MRZ lines' boxes only.
    expect(Buffer.compare(plain.image, drawn.image)).toBe(0);
    const a = await grey(plain.back!.image);
    const b = await grey(drawn.back!.image);
    const boxes = drawn
      .back!.truth.boxes.filter((f) => f.field.startsWith('mrz_'))
      .map(({ quad }) => {
        const xs = quad.map((p) => p[0]);
        const ys = quad.map((p) => p[1]);
        return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] as const;
      });
    expect(boxes.length).toBe(3);
    let inside = 0;
    let outside = 0;
    for (let y = 0; y < a.height; y++) {
      for (let x = 0; x < a.width; x++) {
        const i = y * a.width + x;
        if (Math.abs(a.data[i]! - b.data[i]!) < 40) continue;
        const inBox = boxes.some(
          ([x0, y0, x1, y1]) => x >= x0 - 4 && x <= x1 + 4 && y >= y0 - 4 && y <= y1 + 4,
        );
        if (inBox) inside++;
        else outside++;
      }
    }
    expect(inside).toBeGreaterThan(500);
    expect(outside).toBe(0);
  });

  it('draws K-rich names on request', async () => {
    for (const seed of [5, 6, 7]) {
      const doc = await generateDocument(seed, { ...upright, kNames: true });
      const [surname, given] = doc.back!.truth.mrz![2]!.split('<<');
      expect(surname).toContain('K');
      expect(given).toContain('K');
    }
  });
});
