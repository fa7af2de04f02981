import { beforeAll, describe, expect, it } from 'vitest';
import { type CaptureParams, generateDocument } from '../../scripts/synth/index.ts';
import { readDocument, warmUp } from '../../src/read-document.ts';
import { fold } from '../../src/viz/text.ts';
import { capturedPage } from '../support/captured.ts';

/**
 * The printed zone of a small flatbed scan (document/finer-printed.ts readPadded): its labels,
 * 5-6 px capitals, are read mangled from the detector's tight boxes, and a long line of names is
 * left unread as MRZ-like, while the MRZ and the dates are read. The card is drawn by the
 * synthetic benchmark and scanned by its capture with fixed parameters.
 */

beforeAll(async () => {
  await warmUp();
});

/** A card scanned about 300 px wide, square to the frame. */
const SMALL_SCAN: CaptureParams = {
  level: 'mild',
  docWidth: 300,
  perspective: 0,
  tiltDegrees: 0.3,
  quarterTurns: 0,
  margin: 0.02,
  photocopy: 'none',
  shading: 0,
  whiteBalance: [1, 1, 1],
  glare: null,
  moire: 0,
  blur: 0.4,
  noise: 1,
  jpegQuality: 85,
  scan: true,
};

describe('printed zone of a small scan', () => {
  // Read from the tight boxes alone, this card's given names and date of birth are unread.
  it.each([['td2-b', 4]] as const)(
    'reads the names and the date of birth (%s, document %i)',
    async (layout, seed) => {
      const doc = await generateDocument(seed, { layout, upright: true });
      const reading = await readDocument({ front: await capturedPage(doc.image, SMALL_SCAN, 7) });
      const truth = doc.truth.printed;
      expect(fold(reading.printed.surname ?? '')).toBe(fold(truth.surname!));
      expect(fold(reading.printed.given_names ?? '')).toBe(fold(truth.given_names!));
      expect(reading.printed.date_of_birth).toBe(truth.date_of_birth);
    },
    120_000,
  );
});
