import { describe, expect, it } from 'vitest';
import { mrzCandidates, mrzRows } from '../../src/mrz/locate.ts';
import type { TextLine } from '../../src/ocr/page.ts';

/**
 * Joining pieces of an MRZ row (mrz/locate.ts mrzRows) across a wide gap: MRZ text on both sides
 * is one row only while the joined row spans no more characters than an MRZ line.
 */

/** A read line as the page reader returns it, at a pitch of `pitch` px per character. */
function line(text: string, y: number, left: number, pitch = 17): TextLine {
  const length = text.length * pitch;
  const decoded = { text, chars: [...text].map((c) => ({ char: c, prob: 0.99 })), confidence: 0.99 };
  return {
    text,
    confidence: 0.99,
    mrz: decoded,
    full: decoded,
    y,
    x: left + length / 2,
    left,
    length,
    height: 40,
  } as unknown as TextLine;
}

const TD1 = [
  'I<BFA417433961<624019884<<<<<<',
  '0401191F3511071BFA<<<<<<<<<<<0',
  'ALMOUSTAPHA<<MARIETOU<ASSETOU<',
];

describe('MRZ rows joined across a wide gap', () => {
  it("keeps a front's capitals level with the first row apart from it (a composite photo)", () => {
    const lines = [
      line('PLACEOFBIRTH', 58, -446, 10),
      line('OUAGADOUGOU', 58, -332, 12),
      line(TD1[0]!, 70, 61),
      line(TD1[1]!, 105, 57),
      line(TD1[2]!, 141, 60),
    ];
    // The capitals stay a row of their own (they read as MRZ characters), beside the block.
    expect(mrzRows(lines).map((r) => r.mrz.text)).toEqual(['PLACEOFBIRTHOUAGADOUGOU', ...TD1]);
    const best = mrzCandidates(lines).find((c) => c.found);
    expect(best?.format).toBe('TD1');
    expect(best?.found?.lines).toEqual(TD1);
  });

  it('still joins two pieces of one row whose middle the detector missed', () => {
    // A TD3 name row read as its start and its end, the filler run between them not detected.
    const start = 'P<TCDTOURE<<ISSA';
    const end = '<<<<<<<<<<';
    const lines = [line(start, 100, 0), line(end, 100, 34 * 17)];
    const rows = mrzRows(lines, 4);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.mrz.text).toBe(start + end);
  });
});
