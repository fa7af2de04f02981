import { MRZ_LAYOUTS } from '@idv/core';
import { describe, expect, it } from 'vitest';
import { checksPass, wrongUnderCheck } from '../../scripts/eval/synth-reading.ts';
import { TWO_NAMES_PASSPORT_ZONE } from '../support/mrz-zones.ts';

/** The reading eval's false-valid counting: what passes every check digit, and where it is wrong. */

const TD3 = TWO_NAMES_PASSPORT_ZONE;

const withChar = (lines: string[], line: number, at: number, c: string) =>
  lines.map((l, i) => (i === line ? l.slice(0, at) + c + l.slice(at + 1) : l));

describe('false-valid counting', () => {
  it('a name letter misread passes every check, wrong only where no check digit reaches', () => {
    const got = withChar(TD3, 0, 5, 'N');
    expect(got).not.toEqual(TD3);
    expect(checksPass(got)).toBe(true);
    expect(wrongUnderCheck(got, TD3)).toBe(false);
  });

  it('a compensated pair of birth-date digits passes its check, wrong under a check digit', () => {
    const start = MRZ_LAYOUTS.TD3.dateOfBirth.start;
    // Two digits of the year changed together so that the check still holds (searched).
    let got: string[] | null = null;
    for (const a of '0123456789') {
      for (const b of '0123456789') {
        const t = withChar(withChar(TD3, 1, start + 2, a), 1, start + 3, b);
        if (t[1] !== TD3[1] && checksPass(t)) got ??= t;
      }
    }
    expect(got).not.toBeNull();
    expect(wrongUnderCheck(got!, TD3)).toBe(true);
  });

  it('a check digit read wrong fails, and nothing returned is not a pass', () => {
    const at = MRZ_LAYOUTS.TD3.dateOfBirthCheck.start;
    const got = withChar(TD3, 1, at, String((Number(TD3[1]![at]) + 1) % 10));
    expect(checksPass(got)).toBe(false);
    expect(checksPass(null)).toBe(false);
    expect(checksPass(TD3)).toBe(true);
  });
});
