import { describe, expect, it } from 'vitest';
import { addYears, isIsoDate, mrzBirthDateToIso, mrzExpiryDateToIso, utcDateOf } from '../src/index.ts';

const NOW = new Date('2025-06-01T12:00:00Z');

describe('century rule for MRZ dates', () => {
  it.each([
    ['740812', '1974-08-12'],
    ['000101', '2000-01-01'],
    ['250601', '2025-06-01'], // born today
    ['250602', '1925-06-02'], // tomorrow would be in the future: previous century
    ['991231', '1999-12-31'],
    ['200229', '2020-02-29'],
    ['000229', '2000-02-29'],
  ])('birth %s → %s', (raw, iso) => {
    expect(mrzBirthDateToIso(raw, NOW)).toBe(iso);
  });

  it.each([
    ['120415', '2012-04-15'], // expired long ago
    ['350601', '2035-06-01'], // 10 years ahead
    ['450601', '2045-06-01'], // the last day of the 20-year window
    ['450602', '1945-06-02'], // beyond 20 years ahead: read as the past (expired)
    ['991231', '1999-12-31'],
  ])('expiry %s → %s', (raw, iso) => {
    expect(mrzExpiryDateToIso(raw, NOW)).toBe(iso);
  });

  it.each(['741312', '740832', '7408<<', 'ABCDEF', '01022'])('%s is not a date', (raw) => {
    expect(mrzBirthDateToIso(raw, NOW)).toBeNull();
    expect(mrzExpiryDateToIso(raw, NOW)).toBeNull();
  });
});

describe('ISO helpers', () => {
  it('isIsoDate rejects impossible dates and other formats', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2023-02-29')).toBe(false);
    expect(isIsoDate('12/04/2020')).toBe(false);
    expect(isIsoDate(null)).toBe(false);
  });

  it('addYears keeps the day and turns 29 February into 28 February', () => {
    expect(addYears('2020-03-15', 5)).toBe('2025-03-15');
    expect(addYears('2020-02-29', 5)).toBe('2025-02-28');
    expect(addYears('2020-02-29', 4)).toBe('2024-02-29');
  });

  it('utcDateOf uses the UTC calendar date', () => {
    expect(utcDateOf(new Date('2025-06-01T23:30:00-05:00'))).toBe('2025-06-02');
    expect(utcDateOf(new Date('2025-06-01T00:30:00+02:00'))).toBe('2025-05-31');
  });
});
