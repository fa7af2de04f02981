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
    const tgo = buildMrz({
      format: 'TD3',
      issuingState: 'TGO',
      nationality: 'TGO',
      documentNumber: 'TK8031947',
      surname: 'KASSIMOU',
      givenNames: 'AMA ESI',
      dateOfBirth: '790305',
      sex: 'F',
      dateOfExpiry: '320611',
    });
    const misread = [tgo[0]!.replace('KASSIMOU', 'KA5SIM0U'), tgo[1]!.replace('TGO79', 'TG079')];
    const r = correctMrz(asReading(misread), 'TD3')!;
    expect(r.lines).toEqual(tgo);
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

describe('MRZ correction by character class', () => {
  // An invented TD1 card whose printed number and composite check digits do not hold (as on
  // some specimens): the check digits cannot arbitrate, the class of each position still can.
  const card = [
    'C1TGO0428735611KDA8350061240<<',
    '8203151M3105227TGO<<<<<<<<<<<6',
    'ADJOVI<<KOFFI<ELOM<<<<<<<<<<<<',
  ];
  const read = (lines: string[], prob = 0.99) =>
    lines.map((text) => ({ text, probs: [...text].map(() => prob) }));

  it('never turns a digit enclosed by digits into a letter to satisfy a check digit', () => {
    expect(parseMrz(card)!.checks.find((c) => c.name === 'document_number')!.valid).toBe(false);
    const r = correctMrz(read(card), 'TD1')!;
    expect(r.lines).toEqual(card);
  });

  it('reads confusable letters between digits of a document number as digits, even with a wrong check digit', () => {
    const misread = [card[0]!.replace('0428735', '04Z8735').replace('061240', '06IZ40'), card[1]!, card[2]!];
    const r = correctMrz(read(misread, 0.8), 'TD1')!;
    expect(r.lines[0]).toBe(card[0]);
  });

  it('keeps letter prefixes and suffixes of alphanumeric fields', () => {
    const tgo = buildMrz({
      format: 'TD3',
      issuingState: 'TGO',
      nationality: 'TGO',
      documentNumber: 'KB0007316',
      surname: 'AGBEKO',
      givenNames: 'AKU',
      dateOfBirth: '900214',
      sex: 'F',
      dateOfExpiry: '290730',
      optionalData: 'KB730915C',
    });
    const r = correctMrz(asReading(tgo), 'TD3')!;
    expect(r.lines).toEqual(tgo);
  });

  it('prefers digits for a run of letters inside a number that satisfies the check digit either way', () => {
    // "0ODS0" and "00050" give the same check digit (their values differ by a multiple of 10).
    const tgo = buildMrz({
      format: 'TD3',
      issuingState: 'TGO',
      nationality: 'TGO',
      documentNumber: 'KB000507',
      surname: 'AGBEKO',
      givenNames: 'AKU',
      dateOfBirth: '900214',
      sex: 'F',
      dateOfExpiry: '290730',
    });
    expect(parseMrz(tgo)!.valid).toBe(true);
    const misread = [tgo[0]!, tgo[1]!.replace('KB000507', 'KB0ODS07')];
    expect(parseMrz(misread)!.checks.find((c) => c.name === 'document_number')!.valid).toBe(true);
    const r = correctMrz(asReading(misread), 'TD3')!;
    expect(r.lines).toEqual(tgo);
  });

  it('does not change a date digit into a letter to satisfy a check digit', () => {
    // Birth date check digit printed wrong: 'Z0010I' would satisfy it, a date has no letters.
    const lines = [card[0]!, '2001010F8001022TGO<<<<<<<<<<<0', card[2]!];
    const r = correctMrz(read(lines, 0.9), 'TD1')!;
    expect(r.lines[1]!.slice(0, 6)).toBe('200101');
  });
});

describe('MRZ name field', () => {
  it('reads a letter after the padding fillers as a filler (a < read as K)', () => {
    const td1 = buildMrz({
      format: 'TD1',
      documentCode: 'ID',
      issuingState: 'NER',
      nationality: 'NER',
      documentNumber: 'NE1234567',
      surname: 'DIALLO',
      givenNames: 'AMINATA',
      dateOfBirth: '870412',
      sex: 'F',
      dateOfExpiry: '310925',
    });
    const misread = [td1[0]!, td1[1]!, `${td1[2]!.slice(0, 27)}K<K`];
    expect(misread[2]).not.toBe(td1[2]);
    const r = correctMrz(asReading(misread), 'TD1')!;
    expect(r.lines).toEqual(td1);
  });
});
