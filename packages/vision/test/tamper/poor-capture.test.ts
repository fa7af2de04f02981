import { describe, expect, it } from 'vitest';
import { drawColourCard } from '../../scripts/eval/corpus/colour-card.ts';
import { greyCopy as greyCopyOf } from '../../scripts/eval/corpus/photocopy.ts';
import { blurRgb } from '../../scripts/eval/corpus/raster-io.ts';
import { seededRng } from '../../scripts/eval/corpus/rng.ts';
import { dullsFinePrint } from '../../src/tamper/capture.ts';
import { HIGH_STRENGTH } from '../../src/tamper/descriptions.ts';
import { detectTamper } from '../../src/tamper/index.ts';
import { photocopyOnCapture } from './copy-sign.ts';
import { glyphFieldPage } from './synthetic.ts';

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

/** Glyph blocks in a field, the fifth one 12 px taller (a glyph set larger), with or without a glare. */
const forgedField = (glare: boolean) => glyphFieldPage({ tall: 4, tallTop: 178, glare });

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
