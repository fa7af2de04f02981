import { beforeAll, describe, expect, it } from 'vitest';
import { type CaptureParams, generateDocument } from '../../scripts/synth/index.ts';
import { normalizeImage } from '../../src/image/normalize.ts';
import { readDocumentPage } from '../../src/ocr/focus.ts';
import { readDocument, warmUp } from '../../src/read-document.ts';
import { capturedPage } from '../support/captured.ts';

/**
 * The page's 0°/180° decision (ocr/page.ts). An upright card back whose MRZ fills most of its
 * lower half, photographed large: at the first detection's 640 px each MRZ row's box is as tall
 * as the row pitch, its crop holds parts of the neighbouring rows, and the angle classifier voted
 * those rows upside down; the page was read turned and its MRZ not found. The card is drawn by
 * the synthetic benchmark and photographed by its capture with fixed parameters.
 */

beforeAll(async () => {
  await warmUp();
});

/** A card back nearly level, filling about 60 % of a 2200 px wide frame. */
const LEVEL: CaptureParams = {
  level: 'mild',
  docWidth: 1350,
  perspective: 0.015,
  tiltDegrees: 2.4,
  quarterTurns: 0,
  margin: 0.33,
  photocopy: 'none',
  shading: 0.07,
  whiteBalance: [1, 0.99, 0.99],
  glare: null,
  moire: 0,
  blur: 0,
  noise: 1.9,
  jpegQuality: 91,
};

describe('a page read the right way up', () => {
  it.each([1167586615, 4242])(
    'reads an upright card back upright, and its MRZ (document seed %i)',
    async (seed) => {
      const doc = await generateDocument(seed, { layout: 'sahel-front-b', upright: true });
      const back = doc.back!;
      const img = await capturedPage(back.image, LEVEL, 11);
      const view = await readDocumentPage(img);
      // Upright: the reading direction is the card's tilt, not the tilt plus a half turn.
      expect(Math.abs(view.page.angle)).toBeLessThan(0.2);
      const reading = await readDocument({
        front: await normalizeImage(new Uint8Array(doc.image)),
        back: img,
      });
      expect(reading.mrz?.lines).toEqual(back.truth.mrz);
    },
    240_000,
  );
});
