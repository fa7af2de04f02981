import { describe, expect, it } from 'vitest';
import { checkDigitHolds, mrzCharValue, mrzCheckDigit } from '../../src/index.ts';

describe('mrzCheckDigit (ICAO 9303 part 3 §4.9, weights 7-3-1)', () => {
  it.each([
    // ICAO 9303 worked examples and the invented specimens' fields (specimens.ts).
    ['520727', 3],
    ['TK4702518', 4],
    ['780326', 6],
    ['140923', 1],
    ['KX3095127<<<<<', 4],
    ['TD6093842', 8],
    ['AB2134<<<', 5],
    ['', 0],
    ['<<<<<<', 0],
  ])('check digit of %j is %i', (data, digit) => {
    expect(mrzCheckDigit(data)).toBe(digit);
  });

  it('values characters as 0-9, A=10 … Z=35 and < = 0', () => {
    expect(mrzCharValue('0')).toBe(0);
    expect(mrzCharValue('9')).toBe(9);
    expect(mrzCharValue('A')).toBe(10);
    expect(mrzCharValue('Z')).toBe(35);
    expect(mrzCharValue('<')).toBe(0);
  });

  it('applies the weights 7, 3, 1 by position', () => {
    expect(mrzCheckDigit('1')).toBe(7);
    expect(mrzCheckDigit('01')).toBe(3);
    expect(mrzCheckDigit('001')).toBe(1);
    expect(mrzCheckDigit('0001')).toBe(7);
    expect(mrzCheckDigit('B')).toBe((11 * 7) % 10);
  });

  it('checkDigitHolds accepts only the right single digit', () => {
    expect(checkDigitHolds('TK4702518', '4')).toBe(true);
    expect(checkDigitHolds('TK4702518', '5')).toBe(false);
    expect(checkDigitHolds('<<<', '<')).toBe(false);
    expect(checkDigitHolds('TK4702518', undefined)).toBe(false);
  });
});
