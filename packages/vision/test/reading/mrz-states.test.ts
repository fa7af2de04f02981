import { buildMrz, MRZ_LAYOUTS } from '@idv/core';
import { describe, expect, it } from 'vitest';
import { repairChecks } from '../../src/mrz/check-repair.ts';
import type { ConstrainedLine } from '../../src/mrz/constrained-decode.ts';

/**
 * The issuing state and the nationality carry no check digit: when they differ by one letter,
 * the recogniser's own alternative may make them agree, and nothing else may.
 */

const CARD = buildMrz({
  format: 'TD1',
  documentCode: 'IC',
  issuingState: 'MLI',
  nationality: 'MLI',
  documentNumber: '40215873960012457',
  surname: 'TOURE',
  givenNames: 'MARIAM',
  dateOfBirth: '950417',
  sex: 'F',
  dateOfExpiry: '330912',
});

/** Lines read clearly (0.98), with the given alternatives at some positions. */
function read(
  lines: string[],
  alternatives: Record<string, { char: string; prob: number }>,
): ConstrainedLine[] {
  return lines.map((text, li) => ({
    text,
    logProb: 0,
    positions: [...text].map((char, i) => {
      const alt = alternatives[`${li}:${i}`];
      return { char, prob: alt ? 0.6 : 0.98, alternatives: alt ? [alt] : [] };
    }),
  }));
}

const STATE_END = MRZ_LAYOUTS.TD1.issuingState.end - 1;
const misread = [`${CARD[0]!.slice(0, STATE_END)}L${CARD[0]!.slice(STATE_END + 1)}`, CARD[1]!, CARD[2]!];

describe('issuing state and nationality', () => {
  it('agree when the recogniser saw the other letter as an alternative', () => {
    expect(misread[0]).not.toBe(CARD[0]);
    const r = repairChecks(read(misread, { [`0:${STATE_END}`]: { char: 'I', prob: 0.3 } }), 'TD1')!;
    expect(r.lines).toEqual(CARD);
    expect(r.corrected).toBe(true);
  });

  it('stay as read when the recogniser saw no doubt', () => {
    const r = repairChecks(read(misread, {}), 'TD1')!;
    expect(r.lines).toEqual(misread);
    expect(r.corrected).toBe(false);
  });

  it('stay as read when they differ by more than one letter (a foreigner’s card)', () => {
    const other = [CARD[0]!, CARD[1]!.replace('MLI', 'NER'), CARD[2]!];
    const r = repairChecks(read(other, { '1:15': { char: 'M', prob: 0.3 } }), 'TD1')!;
    expect(r.lines).toEqual(other);
  });
});
