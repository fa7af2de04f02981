import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { normalizeImage } from '../../src/image/normalize.ts';
import { readMrzOnly } from '../../src/mrz/read.ts';
import { warmUp } from '../../src/read-document.ts';
import { SAHEL_CARD_ZONE } from '../support/mrz-zones.ts';

/**
 * The reader must never invent an MRZ: a card's printed title lines in capitals, set in the MRZ
 * font itself and stacked like an MRZ block, have MRZ characters and about an MRZ's line
 * lengths, and every reader returns lines of a format's exact shape. Without the guard
 * (mrz/read.ts `looksLikeMrz`) the three lines below came out as a TD2 zone. Real models, an
 * image drawn here.
 */

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

async function renderBlock(lines: string[], width = 1700) {
  const size = Math.round((width - 120) / (Math.max(...lines.map((l) => l.length)) * 0.75));
  const height = Math.round(width * 0.7);
  const text = lines
    .map(
      (l, i) =>
        `<text x="60" y="${Math.round(height * 0.1 + (i + 1) * size * 1.45)}" font-family="OCR B" font-size="${size}" fill="#1a1a1a">${esc(l)}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#efe9dc"/>${text}</svg>`;
  return normalizeImage(new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer()));
}

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

  it('still reads a real zone drawn the same way (the guard is not a blanket refusal)', SLOW, async () => {
    const got = await readMrzOnly(await renderBlock(SAHEL_CARD_ZONE, 1200));
    expect(got?.lines).toEqual(SAHEL_CARD_ZONE);
  });
});
