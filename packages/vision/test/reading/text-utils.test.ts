import { describe, expect, it } from 'vitest';
import { classIndices, ctcDecode } from '../../src/ocr/ctc.ts';
import { parsePrintedDate } from '../../src/viz/dates.ts';
import { fold, fuzzyContains } from '../../src/viz/text.ts';

describe('printed dates (West African formats)', () => {
  const now = new Date('2025-01-01T00:00:00Z');
  it.each([
    ['12.04.1987', '1987-04-12'],
    ['12/04/1987', '1987-04-12'],
    ['12-04-1987', '1987-04-12'],
    ['12 AVRIL 1987', '1987-04-12'],
    ['12 avril 1987', '1987-04-12'],
    ['12 APR 1987', '1987-04-12'],
    ['12 AUGUST/AOUT 74', '1974-08-12'],
    ['16 APR/AVR 07', '2007-04-16'],
    ['1er: 03 FÉVRIER 2001', '2001-02-03'],
  ])('%s → %s', (text, iso) => {
    expect(parsePrintedDate(text, 'past', now)).toBe(iso);
  });
  it('reads OCR letters inside digits (O for 0)', () => {
    expect(parsePrintedDate('O1.O2.2O2O', 'past', now)).toBe('2020-02-01');
  });
  it('reads a month name with a letter read as a digit (OCT read as 0CT, SEP as 5EP)', () => {
    expect(parsePrintedDate('070CT2007', 'past')).toBe('2007-10-07');
    expect(parsePrintedDate('21 0CT 1963', 'past')).toBe('1963-10-21');
    expect(parsePrintedDate('1 5EP 1999', 'past')).toBe('1999-09-01');
    // Digits alone are no month name.
    expect(parsePrintedDate('12 345 678', 'past')).toBeNull();
  });
  it('reads a date with one of its two separators lost', () => {
    expect(parsePrintedDate('0703.2020.', 'past', now)).toBe('2020-03-07');
    expect(parsePrintedDate('07.032020', 'past', now)).toBe('2020-03-07');
  });
  it('uses the future century for expiry dates', () => {
    expect(parsePrintedDate('15 APR/AVR 31', 'future', now)).toBe('2031-04-15');
  });
  it('rejects impossible dates', () => {
    expect(parsePrintedDate('31.02.1990')).toBeNull();
    expect(parsePrintedDate('NIAMEY')).toBeNull();
  });
});

describe('label matching', () => {
  it('folds accents and case', () => {
    expect(fold('Prénoms  / Nationalité')).toBe('PRENOMS / NATIONALITE');
    expect(fold('N° du passeport')).toBe('NO DU PASSEPORT');
  });
  it('folds full-width brackets to plain ones', () => {
    expect(fold('NE(E） LE')).toBe('NE(E) LE');
  });
  it('tolerates an OCR error in a long label', () => {
    expect(fuzzyContains(fold('Date de naisance'), 'DATE DE NAISSANCE', 2)).toBe(true);
    expect(fuzzyContains(fold('Lieu de résidence'), 'DATE DE NAISSANCE', 2)).toBe(false);
  });
});

describe('CTC decoding', () => {
  const classes = ['', 'A', 'B', '<', 'x'];
  const frame = (k: number) => classes.map((_, i) => (i === k ? 0.9 : 0.1 / (classes.length - 1)));
  it('merges repeats and drops blanks', () => {
    // A A blank A B B < blank <
    const probs = Float32Array.from([1, 1, 0, 1, 2, 2, 3, 0, 3].flatMap(frame));
    expect(ctcDecode(probs, 9, classes).text).toBe('AAB<<');
  });
  it('restricts the alphabet when asked', () => {
    const probs = Float32Array.from([4, 1].flatMap(frame));
    const allowed = classIndices(classes, 'AB<');
    expect(ctcDecode(probs, 2, classes).text).toBe('xA');
    expect(ctcDecode(probs, 2, classes, allowed).text).toBe('A');
  });
});
