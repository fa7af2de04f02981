import { describe, expect, it } from 'vitest';
import { drawColourCard } from '../../scripts/eval/corpus/colour-card.ts';
import { greyCopy as greyCopyOf } from '../../scripts/eval/corpus/photocopy.ts';
import { blurRgb } from '../../scripts/eval/corpus/raster-io.ts';
import { seededRng } from '../../scripts/eval/corpus/rng.ts';
import { dullsFinePrint } from '../../src/tamper/capture.ts';
import { HIGH_STRENGTH } from '../../src/tamper/descriptions.ts';
import { detectTamper } from '../../src/tamper/index.ts';
import { photocopyOnCapture } from './copy-sign.ts';
import { colourDocument, mapPixels, rng } from './synthetic.ts';

const SLOW = { timeout: 240_000 };

/**
 * A poor capture (blur or glare at medium severity) holds the fine-print cues at review: the
 * colour left on a pale print and a glyph's height measure the capture there, and capture
 * problems never fail the tamper check alone (the spec). The sign stays: a copy or a forgery
 * under a poor capture still goes to a human.
 */
describe('dullsFinePrint', () => {
  it('is the capture signs at medium severity, either of them', () => {
    expect(dullsFinePrint(null, null)).toBe(false);
    expect(dullsFinePrint(HIGH_STRENGTH - 0.01, HIGH_STRENGTH - 0.01)).toBe(false);
    expect(dullsFinePrint(HIGH_STRENGTH, null)).toBe(true);
    expect(dullsFinePrint(null, 1)).toBe(true);
  });
});

/** Dark glyph blocks in a field, the fifth one taller (a glyph set larger), on a colour page. */
function forgedField(glare: boolean) {
  const rand = rng(3);
  return mapPixels(colourDocument(640, 400, 11), (x, y, px) => {
    // A lamp's reflection, compact and away from the field: about 0.03 of the photo.
    if (glare && (x - 540) ** 2 + (y - 90) ** 2 < 52 ** 2) return [255, 255, 255];
    let out: [number, number, number] =
      x >= 80 && x < 440 && y >= 160 && y < 240 && px[0] < 60 ? [200, 188, 212] : px;
    if (x >= 100 && x < 420 && y >= 180 && y < 220) {
      const k = Math.floor((x - 100) / 32);
      const col = (x - 100) % 32;
      const top = k === 4 ? 178 : 190;
      if (col >= 6 && col < 24 && y >= top && y < 212) out = [25 + rand() * 10, 25, 35];
    }
    return out;
  });
}

describe('font_inconsistency under glare', () => {
  const textBoxes = [{ field: 'document_number', side: 'front', x: 100, y: 174, w: 320, h: 46 }];
  const signsOf = async (glare: boolean) =>
    (await detectTamper({ front: forgedField(glare) }, { layout: 'td1', portrait: null, textBoxes })).signals;

  it('fails a taller glyph on a clean capture, and asks for a review under a strong glare', async () => {
    const clean = await signsOf(false);
    expect(clean.find((s) => s.type === 'font_inconsistency')?.severity).toBe('high');
    const glared = await signsOf(true);
    expect(glared.find((s) => s.type === 'glare')?.severity).toBe('medium');
    // Still raised (the glyph is still taller), held at review.
    expect(glared.find((s) => s.type === 'font_inconsistency')?.severity).toBe('medium');
  });
});

describe('photocopy under blur', () => {
  it(
    'fails a grey copy photographed sharp, and asks for a review when the photo is blurred',
    SLOW,
    async () => {
      const card = await drawColourCard(seededRng(61), 'poor-capture-61');
      const copy = await greyCopyOf(card.image, seededRng(62));
      const sharp = await photocopyOnCapture(copy, 63);
      expect(sharp.sign?.severity).toBe('high');
      const blurred = await photocopyOnCapture(await blurRgb(copy, 6), 63);
      expect(blurred.signals.find((s) => s.type === 'blur')?.severity).toBe('medium');
      expect(blurred.sign?.severity).toBe('medium');
    },
  );
});
