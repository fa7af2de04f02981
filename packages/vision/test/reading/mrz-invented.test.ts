import { beforeAll, describe, expect, it } from 'vitest';
import { mrzCandidates } from '../../src/mrz/locate.ts';
import { readMrzOnly } from '../../src/mrz/read.ts';
import { blockInkChars } from '../../src/mrz/row-extent.ts';
import { readDocumentPage } from '../../src/ocr/focus.ts';
import { warmUp } from '../../src/read-document.ts';
import { renderMrzPage } from '../support/mrz-page.ts';
import { SAHEL_CARD_ZONE } from '../support/mrz-zones.ts';

/**
 * The reader must never invent an MRZ: a card's printed title lines in capitals, set in the MRZ
 * font itself and stacked like an MRZ block, have MRZ characters and about an MRZ's line
 * lengths, and every reader returns lines of a format's exact shape. Without the guard
 * (mrz/read.ts `looksLikeMrz`) the three lines below came out as a TD2 zone. Real models, an
 * image drawn here.
 */

/** The lines at the top of a plain light page, as a card's title block is printed. */
const renderBlock = (lines: string[], width = 1700) => renderMrzPage(lines, { width, at: 'top' });

/** An invented card's title block: state, motto, document title, a number and a town. */
const HEADER = [
  'BURKINA FASO UNITE PROGRES JUSTICE',
  'CARTE NATIONALE D IDENTITE BURKINABE',
  'NUMERO 1984 0712 5530 OUAGADOUGOU',
];

/** Each test reads a whole page with the real models (slow on a loaded machine, not timed). */
const SLOW = { timeout: 240_000 };

beforeAll(async () => {
  await warmUp();
});

describe('no invented MRZ', () => {
  it('gives no MRZ for a block of printed title lines in the MRZ font', SLOW, async () => {
    expect(await readMrzOnly(await renderBlock(HEADER))).toBeNull();
  });

  it('makes no MRZ candidate of stacked capitals without a filler', SLOW, async () => {
    // Read as MRZ-alphabet rows of MRZ lengths, stacked: without the filler rule they made TD1,
    // TD2 and TD3 candidates, left to the later guards.
    const view = await readDocumentPage(await renderBlock(HEADER));
    const candidates = mrzCandidates(view.page.lines, (rs) => blockInkChars(view.image, view.page, rs));
    expect(candidates).toEqual([]);
    const zone = await readDocumentPage(await renderBlock(SAHEL_CARD_ZONE, 1200));
    expect(mrzCandidates(zone.page.lines).map((c) => c.format)).toContain('TD1');
  });

  it('still reads a real zone drawn the same way (the guard is not a blanket refusal)', SLOW, async () => {
    const got = await readMrzOnly(await renderBlock(SAHEL_CARD_ZONE, 1200));
    expect(got?.lines).toEqual(SAHEL_CARD_ZONE);
  });
});
