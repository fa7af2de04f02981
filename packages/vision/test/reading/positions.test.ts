import { MRZ_LAYOUTS, type MrzFormat } from '@idv/core';
import { describe, expect, it } from 'vitest';
import { positionSets, withCardCodeDigit } from '../../src/mrz/positions.ts';
import { PASSPORT_ZONE, SAHEL_CARD_ZONE, TD2_CARD_ZONE } from '../support/mrz-zones.ts';

/**
 * What each MRZ position may hold (positions.ts), per ICAO 9303: the shapes of the formats, the
 * document code (first character P on a passport, A, C or I (or P, to be turned away) on a
 * card, V on a visa; a card's second character
 * any letter or filler but V, or a digit where read), visas' free optional data.
 */

const allows = (
  format: MrzFormat,
  kind: Parameters<typeof positionSets>[1],
  line: number,
  at: number,
  c: string,
) => positionSets(format, kind)[line]![at]!.includes(c);

describe('MRZ position sets', () => {
  it.each(['TD1', 'TD2', 'TD3'] as const)('%s: one set per position of every line', (format) => {
    const L = MRZ_LAYOUTS[format];
    const sets = positionSets(format);
    expect(sets.length).toBe(L.lineCount);
    for (const line of sets) expect(line.length).toBe(L.lineLength);
  });

  it.each([
    ['TD3', PASSPORT_ZONE],
    ['TD2', TD2_CARD_ZONE],
    ['TD1', SAHEL_CARD_ZONE],
  ] as const)('%s: a well-formed zone is allowed at every position', (format, zone) => {
    const sets = positionSets(format);
    zone.forEach((line, li) => {
      [...line].forEach((c, i) => {
        expect(sets[li]![i], `line ${li} position ${i}`).toContain(c);
      });
    });
  });

  it.each([
    // format, kind, line, position, character, allowed
    ['TD1', 'icao', 0, 1, 'V', false],
    ['TD2', 'icao', 0, 1, 'V', false],
    ['TD1', 'icao', 0, 1, '<', true],
    ['TD1', 'icao', 0, 1, 'D', true],
    ['TD2', 'icao', 0, 1, 'C', true],
    ['TD1', 'icao', 0, 1, '2', false],
    ['TD1', 'icao', 0, 0, '<', false],
    ['TD3', 'icao', 0, 1, 'V', true],
    ['TD3', 'icao', 0, 1, '<', true],
    // The code's first character: P on a passport, A, C or I on a card, V on a visa.
    ['TD3', 'icao', 0, 0, 'P', true],
    ['TD3', 'icao', 0, 0, 'V', false],
    ['TD3', 'icao', 0, 0, 'Y', false],
    ['TD3', 'icao', 0, 0, 'J', false],
    ['TD3', 'visa', 0, 0, 'V', true],
    ['TD3', 'visa', 0, 0, 'P', false],
    ['TD1', 'icao', 0, 0, 'I', true],
    ['TD1', 'icao', 0, 0, 'A', true],
    ['TD1', 'icao', 0, 0, 'C', true],
    ['TD1', 'icao', 0, 0, 'Y', false],
    ['TD2', 'icao', 0, 0, 'I', true],
    ['TD2', 'icao', 0, 0, 'Y', false],
    // P is read on a card only to turn a passport's rows away (locate.ts passportAsCard).
    ['TD2', 'icao', 0, 0, 'P', true],
    ['TD2', 'visa', 0, 0, 'V', true],
    ['TD2', 'visa', 0, 0, 'I', false],
    // A visa's code is V then a letter or filler.
    ['TD2', 'visa', 0, 1, 'V', true],
    // Passport: personal number check and composite are digits (the check may be '<').
    ['TD3', 'icao', 1, 42, 'A', false],
    ['TD3', 'icao', 1, 43, '<', false],
    // MRV-A: positions 29-44 optional data, any character.
    ['TD3', 'visa', 1, 28, 'Z', true],
    ['TD3', 'visa', 1, 42, 'A', true],
    ['TD3', 'visa', 1, 43, '<', true],
    // MRV-B: positions 29-36 optional data.
    ['TD2', 'visa', 1, 35, 'K', true],
    ['TD2', 'icao', 1, 35, 'K', false],
    // Fields whose type the format fixes stay fixed on visas.
    ['TD3', 'visa', 1, 11, '5', false],
    ['TD3', 'visa', 1, 27, '<', false],
  ] as const)('%s %s line %i position %i: %s allowed = %s', (format, kind, line, at, c, allowed) => {
    expect(allows(format, kind, line, at, c)).toBe(allowed);
  });

  it("allows a digit as a card's document code second character only where asked (withCardCodeDigit)", () => {
    for (const format of ['TD1', 'TD2'] as const) {
      const sets = withCardCodeDigit(positionSets(format));
      expect(sets[0]![1]).toContain('1');
      expect(sets[0]![1]).toContain('<');
      expect(sets[0]![1]).not.toContain('V');
      expect(sets[0]![0]).not.toContain('1');
      expect(sets.slice(1)).toEqual(positionSets(format).slice(1));
    }
  });
});
