import { beforeAll, describe, expect, it } from 'vitest';
import { type CaptureParams, capture } from '../../scripts/synth/index.ts';
import { rng } from '../../scripts/synth/random.ts';
import { normalizeImage } from '../../src/image/normalize.ts';
import { mrzRows } from '../../src/mrz/locate.ts';
import { formatFromInk, rowInk } from '../../src/mrz/row-extent.ts';
import { readDocumentPage } from '../../src/ocr/focus.ts';
import { warmUp } from '../../src/read-document.ts';
import { renderMrzPage } from '../support/mrz-page.ts';
import { SAHEL_CARD_ZONE } from '../support/mrz-zones.ts';

/**
 * MRZ rows measured on their ink (row-extent.ts) on a halftone photocopy: the paper printed as a
 * screen of dots as dark as the glyphs, and a card's dark edge bar one cell left of the zone.
 * The page is photographed by the synthetic benchmark's capture with fixed parameters.
 */

beforeAll(async () => {
  await warmUp();
});

/** A card photocopied with a halftone screen, photographed flat at a medium size. */
const HALFTONE_COPY: CaptureParams = {
  level: 'medium',
  docWidth: 760,
  perspective: 0.02,
  tiltDegrees: 1,
  quarterTurns: 0,
  margin: 0.1,
  photocopy: 'halftone',
  shading: 0,
  whiteBalance: [1, 1, 1],
  glare: null,
  moire: 0,
  blur: 0.3,
  noise: 3,
  jpegQuality: 88,
};

describe('MRZ row extent on a halftone photocopy', () => {
  // Light, toned and dark card backs: the darker the paper, the larger its dots.
  it.each(['#e0dcd0', '#c8c4b8', '#b0aca0'])(
    'measures every TD1 row at 30 ± 2 on %s paper',
    async (paper) => {
      const page = await renderMrzPage(SAHEL_CARD_ZONE, { width: 1600, paper, edgeBar: 24, left: 90 });
      const source = { rgb: Buffer.from(page.rgb), width: page.width, height: page.height };
      const shot = await capture([source], HALFTONE_COPY, rng(5));
      const view = await readDocumentPage(await normalizeImage(new Uint8Array(shot.image)));
      const rows = mrzRows(view.page.lines);
      expect(rows.length).toBe(3);
      for (const row of rows) {
        const ink = rowInk(view.image, view.page, row);
        expect(ink).not.toBeNull();
        expect(formatFromInk(3, ink!.chars)).toBe('TD1');
      }
    },
  );
});
