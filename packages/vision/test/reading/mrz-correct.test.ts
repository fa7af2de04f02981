import { buildMrz, parseMrz } from '@idv/core';
import { describe, expect, it } from 'vitest';
import { correctMrz } from '../../src/mrz/correct.ts';

const truth = buildMrz({
  format: 'TD3',
  issuingState: 'NER',
  nationality: 'NER',
  documentNumber: 'NE1234567',
  surname: 'DIALLO',
  givenNames: 'AMINATA',
  dateOfBirth: '870412',
  sex: 'F',
  dateOfExpiry: '310925',
});
const asReading = (lines: string[]) => lines.map((text) => ({ text, probs: [...text].map(() => 0.9) }));

describe('MRZ correction by check digits', () => {
  it('leaves a correct reading unchanged', () => {
    const r = correctMrz(asReading(truth), 'TD3')!;
    expect(r.lines).toEqual(truth);
    expect(r.corrected).toBe(false);
    expect(r.parsed.valid).toBe(true);
  });

  it('repairs O/0 and I/1 confusions where a check digit fails', () => {
    const misread = [truth[0]!, truth[1]!.replace('8704120', '87O412O').replace('NE1234567', 'NEI234567')];
    const r = correctMrz(asReading(misread), 'TD3')!;
    expect(r.lines).toEqual(truth);
    expect(r.corrected).toBe(true);
  });

  it('turns digits in letter-only fields into letters (nationality, names)', () => {
    const uto = buildMrz({
      format: 'TD3',
      issuingState: 'UTO',
      nationality: 'UTO',
      documentNumber: 'L898902C3',
      surname: 'ERIKSSON',
      givenNames: 'ANNA MARIA',
      dateOfBirth: '740812',
      sex: 'F',
      dateOfExpiry: '120415',
    });
    const misread = [uto[0]!.replace('ERIKSSON', 'ER1K5SON'), uto[1]!.replace('UTO74', 'UT074')];
    const r = correctMrz(asReading(misread), 'TD3')!;
    expect(r.lines).toEqual(uto);
  });

  it('restores fillers lost in a long run of <', () => {
    const short = truth[1]!.replace('<<<<<<<', '<<<<');
    const r = correctMrz(asReading([truth[0]!.slice(0, 40), short]), 'TD3')!;
    expect(r.lines).toEqual(truth);
  });

  it('never invents a valid MRZ from a genuinely wrong printed digit', () => {
    // Expiry check digit printed wrong (8 instead of the right one): no confusion can fix it.
    const line2 = truth[1]!;
    const wrongDigit = String((Number(line2[27]) + 3) % 10);
    const bad = [truth[0]!, line2.slice(0, 27) + wrongDigit + line2.slice(28)];
    const r = correctMrz(asReading(bad), 'TD3')!;
    expect(r.lines[1]![27]).toBe(wrongDigit);
    expect(parseMrz(r.lines)!.valid).toBe(false);
  });

  it('rejects lines far from the format length', () => {
    expect(correctMrz(asReading(['P<NER', truth[1]!]), 'TD3')).toBeNull();
  });
});
