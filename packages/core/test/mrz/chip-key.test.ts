import { describe, expect, it } from 'vitest';
import { buildMrz, chipAccessKey, parseMrz } from '../../src/index.ts';
import { mutate, NOW, otherDigit, SPECIMEN_TD1_LONG_NUMBER, SPECIMEN_TD3 } from './specimens.ts';

describe('chipAccessKey (ICAO 9303 part 11)', () => {
  it('gives number, birth and expiry as printed when every check digit holds', () => {
    expect(chipAccessKey(parseMrz(SPECIMEN_TD3, { now: NOW })!)).toEqual({
      document_number: 'TK4702518',
      date_of_birth: '780326',
      date_of_expiry: '140923',
    });
  });

  it('gives the whole long number of a TD1 card', () => {
    expect(chipAccessKey(parseMrz(SPECIMEN_TD1_LONG_NUMBER, { now: NOW })!)?.document_number).toBe(
      'TD6093842517',
    );
    const sahel = buildMrz({
      format: 'TD1',
      issuingState: 'BFA',
      nationality: 'BFA',
      documentNumber: '10203040506070809',
      surname: 'Ouedraogo',
      givenNames: 'Issa',
      dateOfBirth: '880229',
      sex: 'M',
      dateOfExpiry: '320228',
    });
    expect(chipAccessKey(parseMrz(sahel, { now: NOW })!)).toEqual({
      document_number: '10203040506070809',
      date_of_birth: '880229',
      date_of_expiry: '320228',
    });
  });

  it.each([
    ['number', 9],
    ['birth', 19],
    ['expiry', 27],
    ['composite', 43],
  ])('is null when the %s check digit fails', (_label, index) => {
    const broken = mutate(SPECIMEN_TD3, 1, index, otherDigit(SPECIMEN_TD3[1]![index]!));
    expect(chipAccessKey(parseMrz(broken, { now: NOW })!)).toBeNull();
  });

  it('is null when a date has an unknown part (<<), even with valid digits', () => {
    const lines = buildMrz({
      format: 'TD3',
      issuingState: 'NER',
      nationality: 'NER',
      documentNumber: 'AB1234567',
      surname: 'Ali',
      givenNames: '',
      dateOfBirth: '90<<<<',
      sex: 'M',
      dateOfExpiry: '300101',
    });
    expect(parseMrz(lines, { now: NOW })!.valid).toBe(true);
    expect(chipAccessKey(parseMrz(lines, { now: NOW })!)).toBeNull();
  });
});
