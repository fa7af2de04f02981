import { MRZ_LAYOUTS, parseMrz } from '@idv/core';
import { describe, expect, it } from 'vitest';
import { repairChecks } from '../../src/mrz/check-repair.ts';
import type { ConstrainedLine } from '../../src/mrz/constrained-decode.ts';
import { TWO_NAMES_PASSPORT_ZONE } from '../support/mrz-zones.ts';

/**
 * A check-digit repair may make a misread pass only when the recogniser's own alternatives
 * support the change: a check digit passes one reading in ten by chance, so a repair the
 * recogniser found more than ten times less likely than its reading is refused and the check is
 * left failing (an honest failure).
 */

const TD3 = TWO_NAMES_PASSPORT_ZONE;

type Doubt = { read: string; prob: number; alternatives: { char: string; prob: number }[] };

/** Lines read clearly (0.98, no alternative) except at the given `line:at` positions. */
function decoded(lines: string[], doubts: Record<string, Doubt>): ConstrainedLine[] {
  return lines.map((text, li) => {
    const positions = [...text].map((char, i) => {
      const d = doubts[`${li}:${i}`];
      return d
        ? { char: d.read, prob: d.prob, alternatives: d.alternatives }
        : { char, prob: 0.98, alternatives: [] };
    });
    return { text: positions.map((q) => q.char).join(''), positions, logProb: 0 };
  });
}

const BIRTH = MRZ_LAYOUTS.TD3.dateOfBirth.start;
/** Two birth-date digits misread (870412 read 830462), each check-failing on its own. */
const MISREAD: Record<number, string> = { [BIRTH + 1]: '3', [BIRTH + 4]: '6' };

/** The misread with, at each misread position, the printed digit as the recogniser's runner-up. */
function misread(chosen: number, runnerUp: number): ConstrainedLine[] {
  const doubts: Record<string, Doubt> = {};
  for (const [at, read] of Object.entries(MISREAD)) {
    const truth = TD3[1]![Number(at)]!;
    doubts[`1:${at}`] = { read, prob: chosen, alternatives: [{ char: truth, prob: runnerUp }] };
  }
  return decoded(TD3, doubts);
}

const birthValid = (lines: string[]) =>
  parseMrz(lines)!.checks.find((c) => c.name === 'date_of_birth')!.valid;

describe('check-digit repair guard', () => {
  it('the misread of the tests fails the birth-date check, and each single change alone does too', () => {
    const read = misread(0.9, 0.05).map((l) => l.text);
    expect(read[1]).not.toBe(TD3[1]);
    expect(birthValid(read)).toBe(false);
    for (const at of Object.keys(MISREAD)) {
      const one = [...read[1]!];
      one[Number(at)] = TD3[1]![Number(at)]!;
      expect(birthValid([read[0]!, one.join('')])).toBe(false);
    }
  });

  it('keeps a two-change repair both of whose alternatives the recogniser found nearly as likely', () => {
    const r = repairChecks(misread(0.5, 0.4), 'TD3')!;
    expect(r.lines).toEqual(TD3);
    expect(r.corrected).toBe(true);
    expect(birthValid(r.lines)).toBe(true);
  });

  it('refuses a two-change repair on alternatives the recogniser found ~30× less likely', () => {
    // 0.9 against 0.03 at both positions: above MIN_REPAIR_PROB each, but the pair is
    // 900 times less likely than the reading, far more than a check digit's pass can vouch for.
    const lines = misread(0.9, 0.03);
    const r = repairChecks(lines, 'TD3')!;
    expect(r.lines).toEqual(lines.map((l) => l.text));
    expect(r.corrected).toBe(false);
    expect(birthValid(r.lines)).toBe(false);
  });
});
