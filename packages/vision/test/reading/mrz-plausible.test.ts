import { parseMrz } from '@idv/core';
import { describe, expect, it } from 'vitest';
import { codeFitsFormat, plausible } from '../../src/mrz/locate.ts';
import { PASSPORT_ZONE, SAHEL_CARD_ZONE, TD2_CARD_ZONE } from '../support/mrz-zones.ts';

/**
 * The last guard on a reading (locate.ts plausible): besides its fillers and check digits, the
 * document code's first letter must be one its format starts with (P or V on a TD3, A, C, I or V
 * on a TD2, A, C or I on a TD1). A reading whose first line was read from a crop cut askew keeps
 * its second line's check digits while its first letter goes wrong.
 */

const reading = (lines: string[]) => ({ lines, parsed: parseMrz(lines)! });
const withFirst = (lines: string[], c: string) => [c + lines[0]!.slice(1), ...lines.slice(1)];

describe('a reading is plausible only with a first letter its format allows', () => {
  it.each([
    ['TD3', PASSPORT_ZONE],
    ['TD2', TD2_CARD_ZONE],
    ['TD1', SAHEL_CARD_ZONE],
  ] as const)('a well-formed %s zone is plausible', (_f, zone) => {
    expect(plausible(reading(zone))).toBe(true);
  });

  it.each([
    ['TD3', PASSPORT_ZONE, 'V', true],
    ['TD3', PASSPORT_ZONE, 'A', false],
    ['TD3', PASSPORT_ZONE, 'Y', false],
    ['TD2', TD2_CARD_ZONE, 'A', true],
    ['TD2', TD2_CARD_ZONE, 'C', true],
    ['TD2', TD2_CARD_ZONE, 'V', true],
    ['TD2', TD2_CARD_ZONE, 'P', false],
    ['TD2', TD2_CARD_ZONE, 'Y', false],
    ['TD1', SAHEL_CARD_ZONE, 'A', true],
    ['TD1', SAHEL_CARD_ZONE, 'C', true],
    ['TD1', SAHEL_CARD_ZONE, 'V', false],
    ['TD1', SAHEL_CARD_ZONE, 'P', false],
  ] as const)('%s starting with %s: plausible = %s', (_f, zone, c, expected) => {
    expect(plausible(reading(withFirst(zone, c)))).toBe(expected);
  });

  it("the first-letter rule alone (the MRZ model's settled reading): a card read with P is never kept", () => {
    // The decoder's card sets allow P (positions.ts CARD_FIRST) so that a passport's rows cut as
    // a card's still read P; read.ts settledByModel turns such a reading away by this rule.
    expect(codeFitsFormat('P<NERSANI<<AMADOU', 'TD3')).toBe(true);
    expect(codeFitsFormat('P<NERSANI<<AMADOU', 'TD2')).toBe(false);
    expect(codeFitsFormat('PRNER0123456789', 'TD1')).toBe(false);
    expect(codeFitsFormat('IDNER0123456789', 'TD1')).toBe(true);
    expect(codeFitsFormat('', 'TD1')).toBe(false);
  });

  it('a passport whose first line was read from a crop cut askew is not plausible', () => {
    // Its second line, and so every check digit, is intact.
    const askew = [`ACSZSO${PASSPORT_ZONE[0]!.slice(6)}`, PASSPORT_ZONE[1]!];
    expect(parseMrz(askew)!.checks.every((k) => k.valid)).toBe(true);
    expect(plausible(reading(askew))).toBe(false);
  });
});
