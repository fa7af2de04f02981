import { beforeAll, describe, expect, it } from 'vitest';
import { generateDocument } from '../../scripts/synth/index.ts';
import { normalizeImage } from '../../src/image/normalize.ts';
import { readDocument, warmUp } from '../../src/read-document.ts';

/**
 * A passport photographed in perspective (mrz/row-extent.ts wholeSpanPitch and the ink's left
 * edge). The detector's boxes covered only part of each row; the pitch measured on them
 * misjudged the rest of the row, which counted 47 characters for 44 and was read as a TD2. With
 * the pitch measured over the whole span, a coloured stripe beside the first glyph was then
 * taken into the crop and read as a character. The passport is drawn and photographed by the
 * synthetic benchmark (document seed 3422450492, a hard capture).
 */

beforeAll(async () => {
  await warmUp();
});

describe('a passport MRZ in perspective', () => {
  it('is counted as a TD3 and read from its first glyph', async () => {
    const doc = await generateDocument(3422450492, {
      kind: 'passport',
      level: 'hard',
      composite: false,
      split: 'tuning',
    });
    const reading = await readDocument({ front: await normalizeImage(new Uint8Array(doc.image)) });
    expect(doc.truth.mrz).toBeTruthy();
    expect(reading.mrz?.lines).toEqual(doc.truth.mrz);
  }, 240_000);
});
