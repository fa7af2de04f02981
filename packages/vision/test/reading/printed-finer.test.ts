import { beforeAll, describe, expect, it } from 'vitest';
import { type CaptureParams, generateDocument } from '../../scripts/synth/index.ts';
import { readDocument, warmUp } from '../../src/read-document.ts';
import { fold } from '../../src/viz/text.ts';
import { capturedPage } from '../support/captured.ts';

/**
 * The printed zone of a card turned a quarter in a portrait frame (document/finer-printed.ts):
 * at the first detection's 640 px its labels and values are 5-6 px tall and read in pieces or not
 * at all, while its MRZ is read. The card is drawn by the synthetic benchmark and photographed by
 * its capture with fixed parameters.
 */

beforeAll(async () => {
  await warmUp();
});

/** A card turned 270°, filling most of a 908×1280 frame. */
const TURNED: CaptureParams = {
  level: 'mild',
  docWidth: 840,
  perspective: 0.02,
  tiltDegrees: 0.5,
  quarterTurns: 3,
  margin: 0.25,
  photocopy: 'none',
  shading: 0.05,
  whiteBalance: [1, 1, 1],
  glare: null,
  moire: 0,
  blur: 0.5,
  noise: 3,
  jpegQuality: 88,
};

describe('printed zone of a card turned a quarter', () => {
  it.each(['td2-a'])(
    'reads the names and the date of birth (%s)',
    async (layout) => {
      const doc = await generateDocument(3, { layout, upright: true });
      const reading = await readDocument({ front: await capturedPage(doc.image, TURNED, 7) });
      const truth = doc.truth.printed;
      expect(fold(reading.printed.surname ?? '')).toBe(fold(truth.surname!));
      expect(fold(reading.printed.given_names ?? '')).toBe(fold(truth.given_names!));
      expect(reading.printed.date_of_birth).toBe(truth.date_of_birth);
    },
    120_000,
  );
});
