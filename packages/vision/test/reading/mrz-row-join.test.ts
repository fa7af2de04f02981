import { describe, expect, it } from 'vitest';
import { mrzCandidates, mrzRows } from '../../src/mrz/locate.ts';
import { readLine } from '../support/page-lines.ts';

/**
 * Joining pieces of an MRZ row (mrz/locate.ts mrzRows) across a wide gap: MRZ text on both sides
 * is one row only while the joined row spans no more characters than an MRZ line.
 */

const TD1 = [
  'I<BFA417433961<624019884<<<<<<',
  '0401191F3511071BFA<<<<<<<<<<<0',
  'ALMOUSTAPHA<<MARIETOU<ASSETOU<',
];

describe('MRZ rows joined across a wide gap', () => {
  it("keeps a front's capitals level with the first row apart from it (a composite photo)", () => {
    const lines = [
      readLine('PLACEOFBIRTH', 58, -446, 10),
      readLine('OUAGADOUGOU', 58, -332, 12),
      readLine(TD1[0]!, 70, 61),
      readLine(TD1[1]!, 105, 57),
      readLine(TD1[2]!, 141, 60),
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
    const lines = [readLine(start, 100, 0), readLine(end, 100, 34 * 17)];
    const rows = mrzRows(lines, 4);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.mrz.text).toBe(start + end);
  });
});
