import { buildMrz, type MrzFormat } from '@idv/core';
import { describe, expect, it } from 'vitest';
import type { ConstrainedLine } from '../../src/mrz/constrained-decode.ts';
import { clearStrayNameLetters, strayNamePositions } from '../../src/mrz/name-tail.ts';

/**
 * Stray letters in the names' padding (name-tail.ts): ICAO writes one '<<' between the surname
 * and the given names, so up to two letters after a second '<<' at the line's end are fillers
 * misread; anything else in the name field stays as read.
 */

/** The name line of a TD3, TD2 or TD1 built from `surname` and `given`, with `tail` written over its end. */
function nameLine(format: MrzFormat, surname: string, given: string, tail = ''): string {
  const lines = buildMrz({
    format,
    documentCode: format === 'TD3' ? 'P' : 'I',
    issuingState: 'NER',
    surname,
    givenNames: given,
    documentNumber: 'AB1234567',
    nationality: 'NER',
    dateOfBirth: '900101',
    sex: 'F',
    dateOfExpiry: '300101',
  });
  const line = lines[format === 'TD1' ? 2 : 0]!;
  return line.slice(0, line.length - tail.length) + tail;
}

describe('stray letters in the name padding', () => {
  it.each([
    // format, surname, given names, written over the end, positions expected cleared (from the end)
    ['TD3', 'COULIBALY', 'MARIAM', 'O', [1]],
    ['TD3', 'HAIDARA SIDIBE', 'HAWA', 'O', [1]],
    ['TD3', 'TRAORE', 'AWA', 'CO', [2, 1]],
    ['TD1', 'ABDOU KADER', 'IBRAHIM', 'I', [1]],
    ['TD2', 'DIALLO', 'ADAMA', 'X', [1]],
  ] as const)('%s %s << %s with %s at the end: cleared', (format, surname, given, tail, fromEnd) => {
    const text = nameLine(format, surname, given, tail);
    expect(strayNamePositions(text, format)).toEqual(fromEnd.map((k) => text.length - k));
  });

  it.each([
    // Well-formed names, a surname alone, given names filling the field, one '<<' only.
    ['TD3', 'COULIBALY', 'MARIAM', ''],
    ['TD3', 'KANTE', '', ''],
    ['TD2', 'KABORE', 'ABDOULAYE FATOUMATA ELISABETH', ''],
    // A surname alone followed by a letter: one '<<', read as a one-letter given name.
    ['TD3', 'KANTE', '', 'O'],
    // Three letters after a second '<<' are more likely a name cut by a misread '<<'.
    ['TD3', 'COULIBALY', 'MARIAM', 'OCO'],
  ] as const)('%s %s << %s with "%s" at the end: left as read', (format, surname, given, tail) => {
    expect(strayNamePositions(nameLine(format, surname, given, tail), format)).toEqual([]);
  });

  it('leaves a name cut by a misread << as read', () => {
    const text = nameLine('TD3', 'HAMIDOU', 'JEAN BAPTISTE MOUSSA').replace('BAPTISTE', '<APTISTE');
    expect(strayNamePositions(text, 'TD3')).toEqual([]);
  });

  it("turns the positions into fillers, keeping the recogniser's own '<' probability", () => {
    const text = nameLine('TD3', 'COULIBALY', 'MARIAM', 'O');
    const line: ConstrainedLine = {
      text,
      positions: [...text].map((char, i) =>
        i === text.length - 1
          ? { char, prob: 0.6, alternatives: [{ char: '<', prob: 0.3 }] }
          : { char, prob: 0.99, alternatives: [] },
      ),
      logProb: -1,
    };
    const second: ConstrainedLine = { text: 'X', positions: [], logProb: 0 };
    const { lines, cleared } = clearStrayNameLetters([line, second], 'TD3');
    expect(cleared).toEqual([text.length - 1]);
    expect(lines[0]!.text).toBe(`${text.slice(0, -1)}<`);
    expect(lines[0]!.positions.at(-1)).toEqual({
      char: '<',
      prob: 0.3,
      alternatives: [{ char: 'O', prob: 0.6 }],
    });
    expect(lines[1]).toBe(second);
  });
});
