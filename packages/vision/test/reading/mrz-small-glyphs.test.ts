import { beforeAll, describe, expect, it } from 'vitest';
import { mrzFromPage } from '../../src/mrz/read.ts';
import { readDocumentPage } from '../../src/ocr/focus.ts';
import { warmUp } from '../../src/read-document.ts';
import { decisionCounts, startProfile, stopProfile } from '../../src/runtime/profile.ts';
import { renderMrzPage } from '../support/mrz-page.ts';
import { PASSPORT_ZONE } from '../support/mrz-zones.ts';

/**
 * On small glyphs (a character pitch under SMALL_GLYPH_PITCH_PX source pixels) the MRZ model's
 * sure reading is not taken alone: both recognisers vote (mrz/read.ts smallGlyphs). Pages drawn
 * here at widths that put the passport zone's pitch on either side of the threshold, read with
 * the real models as the service reads them (rows deferred to the MRZ reader).
 */

/** Each test reads whole pages with the real models (slow on a loaded machine, not timed). */
const SLOW = { timeout: 240_000 };

beforeAll(async () => {
  await warmUp();
});

async function readAt(width: number) {
  const img = await renderMrzPage(PASSPORT_ZONE, { width, title: 'Passeport / Passport' });
  const view = await readDocumentPage(img, { deferMrzRows: true });
  startProfile();
  const mrz = await mrzFromPage(view.image, view.page);
  const cascade = decisionCounts(stopProfile(), 'mrz-cascade').map(([d]) => d);
  return { mrz, cascade, page: view.page };
}

describe('MRZ of small glyphs', () => {
  it('a pitch of about 6 px: the vote reads the zone, not the model alone', SLOW, async () => {
    const got = await readAt(420);
    expect(got.cascade).toEqual(['voted: small glyphs']);
    expect(got.mrz?.lines).toEqual(PASSPORT_ZONE);
  });

  it('a zone only the model located (pitch about 8 px) is still voted on and read', SLOW, async () => {
    const got = await readAt(480);
    expect(got.cascade).toEqual(['voted: small glyphs']);
    expect(got.mrz?.lines).toEqual(PASSPORT_ZONE);
    // Not settled by the model: every line of the page has its own reading.
    expect(got.page.lines.some((l) => l.deferred)).toBe(false);
  });

  it('a pitch of about 11 px: the sure model reading stops the cascade, as before', SLOW, async () => {
    const got = await readAt(640);
    expect(got.cascade).toEqual(['stopped sure']);
    expect(got.mrz?.lines).toEqual(PASSPORT_ZONE);
  });
});
