import { parse as libraryParse } from 'mrz';
import { describe, expect, it } from 'vitest';
import { buildMrz, detectMrzFormat, type MrzCheckName, mrzCheckDigit, parseMrz } from '../../src/index.ts';
import {
  mutate,
  NOW,
  otherDigit,
  SPECIMEN_TD1,
  SPECIMEN_TD1_LONG_NUMBER,
  SPECIMEN_TD2,
  SPECIMEN_TD3,
} from './specimens.ts';

const validity = (lines: readonly string[]) => {
  const parsed = parseMrz(lines, { now: NOW });
  if (!parsed) throw new Error('not parsed');
  return Object.fromEntries(parsed.checks.map((c) => [c.name, c.valid]));
};

describe('detectMrzFormat', () => {
  it.each([
    [SPECIMEN_TD3, 'TD3'],
    [SPECIMEN_TD2, 'TD2'],
    [SPECIMEN_TD1, 'TD1'],
    [[SPECIMEN_TD3[0]!.slice(0, 43), SPECIMEN_TD3[1]!], 'TD3'], // one filler lost: still TD3, parsed as invalid
    [['ABC', 'DEF'], null],
    [[SPECIMEN_TD3[0]!], null],
    [[...SPECIMEN_TD1, SPECIMEN_TD1[0]!], null],
    [[SPECIMEN_TD1[0]!, SPECIMEN_TD1[1]!], null], // two lines of 30: no such format
    [[], null],
  ])('%j → %s', (lines, format) => {
    expect(detectMrzFormat(lines)).toBe(format);
  });

  it('ignores spaces inside and around lines', () => {
    expect(
      detectMrzFormat([` ${SPECIMEN_TD3[0]!.slice(0, 20)} ${SPECIMEN_TD3[0]!.slice(20)} `, SPECIMEN_TD3[1]!]),
    ).toBe('TD3');
  });
});

describe('parseMrz on the invented specimens', () => {
  it('TD3 passport (ADJOVI AFI MAWUENA)', () => {
    const p = parseMrz(SPECIMEN_TD3, { now: NOW })!;
    expect(p).toMatchObject({
      format: 'TD3',
      documentCode: 'P',
      issuingState: 'TGO',
      nationality: 'TGO',
      documentNumber: 'TK4702518',
      surname: 'ADJOVI',
      givenNames: 'AFI MAWUENA',
      dateOfBirth: '1978-03-26',
      dateOfExpiry: '2014-09-23',
      rawDateOfBirth: '780326',
      rawDateOfExpiry: '140923',
      sex: 'F',
      optionalData: 'KX3095127',
      valid: true,
      invalidCharacters: false,
    });
    expect(p.checks.map((c) => c.name)).toEqual([
      'document_number',
      'date_of_birth',
      'date_of_expiry',
      'optional_data',
      'composite',
    ]);
    const number = p.checks[0]!;
    expect(number).toMatchObject({
      line: 1,
      start: 0,
      end: 9,
      checkAt: 9,
      valid: true,
      expected: 4,
      found: '4',
    });
    expect(p.checks.find((c) => c.name === 'composite')).toMatchObject({ line: 1, checkAt: 43, expected: 2 });
  });

  it('TD2 card', () => {
    const p = parseMrz(SPECIMEN_TD2, { now: NOW })!;
    expect(p).toMatchObject({
      format: 'TD2',
      documentCode: 'I',
      documentNumber: 'TD6093842',
      surname: 'ADJOVI',
      givenNames: 'AFI MAWUENA',
      dateOfBirth: '1978-03-26',
      sex: 'F',
      valid: true,
    });
    expect(p.checks.map((c) => c.name)).toEqual([
      'document_number',
      'date_of_birth',
      'date_of_expiry',
      'composite',
    ]);
  });

  it('TD1 card', () => {
    const p = parseMrz(SPECIMEN_TD1, { now: NOW })!;
    expect(p).toMatchObject({
      format: 'TD1',
      documentNumber: 'TD6093842',
      surname: 'ADJOVI',
      givenNames: 'AFI MAWUENA',
      dateOfExpiry: '2014-09-23',
      nationality: 'TGO',
      valid: true,
    });
    expect(p.checks.find((c) => c.name === 'composite')).toMatchObject({
      line: 1,
      checkAt: 29,
      ranges: [
        { line: 0, start: 5, end: 30 },
        { line: 1, start: 0, end: 7 },
        { line: 1, start: 8, end: 15 },
        { line: 1, start: 18, end: 29 },
      ],
    });
  });

  it('TD1 card with a 12-character number continued in the optional data', () => {
    const p = parseMrz(SPECIMEN_TD1_LONG_NUMBER, { now: NOW })!;
    expect(p.documentNumber).toBe('TD6093842517');
    expect(p.valid).toBe(true);
    expect(p.optionalData).toBe('');
    // The check digit of the whole number sits after the continuation, at position 18.
    expect(p.checks[0]).toMatchObject({ name: 'document_number', line: 0, start: 5, end: 18, checkAt: 18 });
  });
});

describe('parseMrz detects every wrong check digit', () => {
  const cases: Array<[string, readonly string[], number, number, MrzCheckName[]]> = [
    // A wrong check digit breaks its own check; the composite covers the other check digits too.
    ['TD3 number', SPECIMEN_TD3, 1, 9, ['document_number', 'composite']],
    ['TD3 birth', SPECIMEN_TD3, 1, 19, ['date_of_birth', 'composite']],
    ['TD3 expiry', SPECIMEN_TD3, 1, 27, ['date_of_expiry', 'composite']],
    ['TD3 personal number', SPECIMEN_TD3, 1, 42, ['optional_data', 'composite']],
    ['TD3 composite', SPECIMEN_TD3, 1, 43, ['composite']],
    ['TD2 number', SPECIMEN_TD2, 1, 9, ['document_number', 'composite']],
    ['TD2 composite', SPECIMEN_TD2, 1, 35, ['composite']],
    ['TD1 number', SPECIMEN_TD1, 0, 14, ['document_number', 'composite']],
    ['TD1 birth', SPECIMEN_TD1, 1, 6, ['date_of_birth', 'composite']],
    ['TD1 expiry', SPECIMEN_TD1, 1, 14, ['date_of_expiry', 'composite']],
    ['TD1 composite', SPECIMEN_TD1, 1, 29, ['composite']],
    ['TD1 long number check', SPECIMEN_TD1_LONG_NUMBER, 0, 18, ['document_number', 'composite']],
  ];
  it.each(cases)('%s', (_label, lines, line, index, failing) => {
    const mutated = mutate(lines, line, index, otherDigit(lines[line]![index]!));
    const v = validity(mutated);
    expect(Object.keys(v).filter((k) => !v[k])).toEqual(failing);
    expect(parseMrz(mutated, { now: NOW })!.valid).toBe(false);
  });

  it('a changed data character breaks its field and the composite', () => {
    const v = validity(mutate(SPECIMEN_TD3, 1, 15, '5')); // birth 780326 → 785326
    expect(v).toMatchObject({ document_number: true, date_of_birth: false, composite: false });
  });

  it('a TD1 optional data change is caught by the composite only', () => {
    const v = validity(mutate(SPECIMEN_TD1, 1, 20, 'X'));
    expect(v).toEqual({ document_number: true, date_of_birth: true, date_of_expiry: true, composite: false });
  });

  it('a letter where a check digit belongs is invalid', () => {
    expect(validity(mutate(SPECIMEN_TD3, 1, 19, 'O')).date_of_birth).toBe(false);
  });
});

describe('parseMrz flags characters and lengths', () => {
  it('lower case or foreign characters make the MRZ invalid even if digits hold', () => {
    const p = parseMrz([SPECIMEN_TD3[0]!.replace('AFI', 'afi'), SPECIMEN_TD3[1]!], { now: NOW })!;
    expect(p.invalidCharacters).toBe(true);
    expect(p.valid).toBe(false);
    expect(p.checks.every((c) => c.valid)).toBe(true);
  });

  it('a line one character short parses (fields readable) but is invalid', () => {
    const p = parseMrz([SPECIMEN_TD3[0]!.slice(0, 43), SPECIMEN_TD3[1]!], { now: NOW })!;
    expect(p.lengthsValid).toBe(false);
    expect(p.valid).toBe(false);
    expect(p.surname).toBe('ADJOVI');
  });

  it.each([
    // A passport's second line read from the first row's crop: a filler inside the number.
    ['P<CIV1234', 'TD3'],
    ['A<<<50608', 'TD3'],
    ['<12345678', 'TD3'],
    ['AB1<23456', 'TD1'],
    ['<<<<<<<<<', 'TD2'],
  ] as const)(
    'a document number %s (%s) is malformed even with its check digit holding',
    (number, format) => {
      const base = { TD3: SPECIMEN_TD3, TD2: SPECIMEN_TD2, TD1: SPECIMEN_TD1 }[format];
      const at = format === 'TD1' ? { line: 0, start: 5 } : { line: 1, start: 0 };
      const lines = [...base];
      const line = lines[at.line]!;
      lines[at.line] =
        line.slice(0, at.start) + number + String(mrzCheckDigit(number)) + line.slice(at.start + 10);
      const p = parseMrz(lines, { now: NOW })!;
      expect(p.checks.find((c) => c.name === 'document_number')!.valid).toBe(true);
      expect(p.fieldsWellFormed).toBe(false);
      expect(p.valid).toBe(false);
    },
  );

  it.each([['TK4702518'], ['AB12<<<<<']])(
    'a document number %s padded on the right is well formed',
    (number) => {
      const lines = [SPECIMEN_TD3[0]!, number + String(mrzCheckDigit(number)) + SPECIMEN_TD3[1]!.slice(10)];
      const p = parseMrz(lines, { now: NOW })!;
      expect(p.fieldsWellFormed).toBe(true);
      expect(p.checks.find((c) => c.name === 'document_number')!.valid).toBe(true);
    },
  );

  it.each([[['garbage']], [[]], [null as unknown as string[]], [[1, 2] as unknown as string[]]])(
    'never throws on %j',
    (input) => {
      expect(parseMrz(input)).toBeNull();
    },
  );
});

describe('parseMrz fields', () => {
  const base = {
    format: 'TD3' as const,
    issuingState: 'NER',
    nationality: 'NER',
    documentNumber: 'AB1234567',
    surname: 'Issoufou',
    givenNames: 'Mariama',
    dateOfBirth: '900101',
    sex: 'F' as const,
    dateOfExpiry: '300101',
  };

  it('reads sex M, F and < (unspecified, reported as X)', () => {
    expect(parseMrz(buildMrz({ ...base, sex: 'M' }), { now: NOW })!.sex).toBe('M');
    expect(parseMrz(buildMrz({ ...base, sex: 'F' }), { now: NOW })!.sex).toBe('F');
    expect(parseMrz(buildMrz({ ...base, sex: '<' }), { now: NOW })!.sex).toBe('X');
  });

  it('keeps one- and two-letter state codes in their three-character ICAO form', () => {
    const p = parseMrz(buildMrz({ ...base, issuingState: 'D', nationality: 'D' }), { now: NOW })!;
    expect(p.issuingState).toBe('D<<');
    expect(p.nationality).toBe('D<<');
  });

  it('a surname alone (no <<) gives empty given names', () => {
    const p = parseMrz(buildMrz({ ...base, givenNames: '' }), { now: NOW })!;
    expect(p.surname).toBe('ISSOUFOU');
    expect(p.givenNames).toBe('');
  });

  it('an impossible date keeps its raw form but has no ISO date', () => {
    const p = parseMrz(buildMrz({ ...base, dateOfBirth: '901332' }), { now: NOW })!;
    expect(p.rawDateOfBirth).toBe('901332');
    expect(p.dateOfBirth).toBeNull();
  });

  it('an unknown day written << has no ISO date', () => {
    const p = parseMrz(buildMrz({ ...base, dateOfBirth: '9001<<' }), { now: NOW })!;
    expect(p.dateOfBirth).toBeNull();
    expect(p.valid).toBe(true);
  });
});

describe('agreement with the mrz library where it is right', () => {
  // Compared on freshly built zones with a state the library knows; long numbers and truncated names are tested above and in build.test.ts.
  it.each([
    ['TD3', 'AB1234567'],
    ['TD2', 'X12345678'],
    ['TD1', 'C01X00T47'],
    ['TD1', '12345678901234567'],
  ] as const)('%s %s', (format, documentNumber) => {
    const lines = buildMrz({
      format,
      issuingState: 'MLI',
      nationality: 'MLI',
      documentNumber,
      surname: 'Keita',
      givenNames: 'Salif',
      dateOfBirth: '491225',
      sex: 'M',
      dateOfExpiry: '310630',
    });
    const ours = parseMrz(lines, { now: NOW })!;
    const theirs = libraryParse(lines);
    expect(theirs.valid).toBe(true);
    expect(ours.valid).toBe(true);
    expect(ours.documentNumber).toBe(theirs.documentNumber);
    expect(ours.surname).toBe(theirs.fields.lastName);
    expect(ours.givenNames).toBe(theirs.fields.firstName);
    expect(ours.rawDateOfBirth).toBe(theirs.fields.birthDate);
  });
});
