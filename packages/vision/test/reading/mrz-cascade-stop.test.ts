import { buildMrz, type MrzFormat, parseMrz } from '@idv/core';
import { describe, expect, it } from 'vitest';
import { cascadeStop, checksDecide } from '../../src/mrz/cascade-stop.ts';
import type { PositionReading } from '../../src/mrz/constrained-decode.ts';
import type { MrzRow } from '../../src/mrz/locate.ts';
import { type ModelMrzReading, pageMrzLines } from '../../src/mrz/model-read.ts';

/**
 * The cascade's stop rule (mrz/cascade-stop.ts) on constructed model readings: positions read
 * with a clear peak unless a doubt is given as [line, position, chosen prob, alternatives].
 */
type Doubt = [line: number, at: number, prob: number, alternatives: [string, number][]];

function reading(lines: string[], doubts: Doubt[] = [], format: MrzFormat = 'TD3'): ModelMrzReading {
  const decoded = lines.map((text, li) => {
    const positions: PositionReading[] = [...text].map((char, at) => {
      const d = doubts.find(([l, a]) => l === li && a === at);
      return {
        char,
        prob: d ? d[2] : 0.95,
        alternatives: d ? d[3].map(([c, prob]) => ({ char: c, prob })) : [],
      };
    });
    return { text, positions, logProb: -1 };
  });
  const parsed = parseMrz(lines)!;
  return {
    lines,
    parsed,
    corrected: false,
    format,
    confidence: 0.9,
    invalidCount: parsed.checks.filter((c) => !c.valid).length,
    decoded,
  };
}

const passport = (documentNumber: string, state = 'MLI', optionalData?: string) =>
  buildMrz({
    format: 'TD3',
    issuingState: state,
    nationality: state,
    documentNumber,
    surname: 'KEITA',
    givenNames: 'OUMOU',
    dateOfBirth: '930317',
    sex: 'F',
    dateOfExpiry: '290611',
    optionalData,
  });

const noPage = [null, null];
/** Line 2 position of the document number's fourth character. */
const NUMBER_AT = 3;

describe('the cascade stop rule', () => {
  it('stops on a reading sure at every position', () => {
    expect(cascadeStop(reading(passport('B47302915')), noPage)).toEqual({ stop: 'sure' });
  });

  it('stops by the check digits when the only alternative of a hesitant digit fails them', () => {
    const r = reading(passport('B47302915'), [[1, NUMBER_AT, 0.55, [['8', 0.35]]]]);
    expect(cascadeStop(r, noPage)).toEqual({ stop: 'checks' });
  });

  it('votes when an alternative passes the checks too (A and 0 weigh the same modulo 10)', () => {
    const r = reading(passport('BA7302915'), [[1, 1, 0.55, [['0', 0.35]]]]);
    expect(checksDecide(r, noPage)).toBe('another reading passes the checks');
  });

  it('votes when swaps that cancel in the check are seen at a sure position of the same field', () => {
    // O (24) for 0 at weights 7 and 3 adds 240 to the weighted sum: both checks still hold.
    const misread = passport('KT2O813O5');
    const swapBoth = reading(misread, [
      [1, 3, 0.6, [['0', 0.3]]],
      [1, 7, 0.9, [['0', 0.05]]],
    ]);
    expect(checksDecide(swapBoth, noPage)).toBe('another reading passes the checks');
    const pageSaysZero = [misread[0]!, `${misread[1]!.slice(0, 7)}0${misread[1]!.slice(8)}`];
    const oneDoubt = reading(misread, [[1, 3, 0.6, [['0', 0.3]]]]);
    expect(checksDecide(oneDoubt, pageSaysZero)).toBe('another reading passes the checks');
  });

  it("counts the page reading's character as an alternative", () => {
    const lines = passport('BA7302915');
    const page = [lines[0]!, `B0${lines[1]!.slice(2)}`];
    const r = reading(lines, [[1, 1, 0.55, [['4', 0.3]]]]);
    expect(checksDecide(r, noPage)).toBe(true);
    expect(checksDecide(r, page)).toBe('another reading passes the checks');
  });

  it('never settles a G/6 or U/0 hesitation by the checks', () => {
    const g = reading(passport('BG7302915'), [[1, 1, 0.55, [['6', 0.35]]]]);
    expect(cascadeStop(g, noPage)).toEqual({ stop: null, reason: 'hesitation G/6' });
    const u = reading(passport('B07302915'), [[1, 1, 0.55, [['U', 0.35]]]]);
    expect(cascadeStop(u, noPage)).toEqual({ stop: null, reason: 'hesitation U/0' });
  });

  it('never settles a filler that may be a K (optional data under its check digit)', () => {
    const lines = passport('B47302915', 'MLI', 'X12');
    // The optional data field starts at 28 on a TD3's second line: 'X12' then fillers.
    const r = reading(lines, [[1, 32, 0.6, [['K', 0.3]]]]);
    expect(checksDecide(r, noPage)).toBe('hesitation K/<');
  });

  it('requires name positions to be sure (no check digit covers them)', () => {
    const r = reading(passport('B47302915'), [[0, 7, 0.45, [['H', 0.4]]]]);
    expect(cascadeStop(r, noPage)).toEqual({ stop: null, reason: 'name position unsure' });
  });

  it('sends a name letter with a runner-up of 0.15 or more to the vote, even with a high peak', () => {
    // The model's confident misread of a small blurred name: B read as D at 0.75 against 0.185.
    const doubtful = reading(passport('B47302915'), [[0, 5, 0.75, [['B', 0.185]]]]);
    expect(cascadeStop(doubtful, noPage)).toEqual({ stop: null, reason: 'name position unsure' });
    const sure = reading(passport('B47302915'), [[0, 5, 0.75, [['B', 0.1]]]]);
    expect(cascadeStop(sure, noPage)).toEqual({ stop: 'sure' });
  });

  it('keeps the looser runner-up bound on positions a check digit covers', () => {
    // The same doubt on a digit of the number: its check digit decides it (the 8 fails it).
    const r = reading(passport('B47302915'), [[1, NUMBER_AT, 0.75, [['8', 0.185]]]]);
    expect(cascadeStop(r, noPage)).toEqual({ stop: 'sure' });
  });

  it('requires positions outside every check to be sure (the sex)', () => {
    const r = reading(passport('B47302915'), [[1, 20, 0.6, [['M', 0.3]]]]);
    expect(checksDecide(r, noPage)).toBe('position without check digit unsure');
  });

  it('requires both state codes to be real ICAO codes', () => {
    const r = reading(passport('B47302915', 'QQX'), [[1, NUMBER_AT, 0.55, [['8', 0.35]]]]);
    expect(checksDecide(r, noPage)).toBe('unknown state code');
  });

  it('gives up beyond 256 combinations', () => {
    // Nine hesitant digits with one alternative each: 2^9 = 512 combinations.
    const doubts: Doubt[] = [2, 3, 4, 5, 6, 7, 8, 13, 14].map((at) => [1, at, 0.55, [['8', 0.3]]]);
    const r = reading(passport('B47302915'), doubts);
    expect(checksDecide(r, noPage)).toBe('too many combinations');
  });

  it('never settles a wrong printed check digit, even when an alternative would make it hold', () => {
    const lines = passport('B47302915');
    const printed = lines[1]![9]!;
    const wrong = String((Number(printed) + 1) % 10);
    const misprinted = [lines[0]!, `${lines[1]!.slice(0, 9)}${wrong}${lines[1]!.slice(10)}`];
    const r = reading(misprinted, [[1, 9, 0.55, [[printed, 0.35]]]]);
    expect(cascadeStop(r, noPage)).toEqual({ stop: null, reason: 'check digit failing' });
    expect(checksDecide(r, noPage)).toBe('check digit failing');
  });
});

describe("the page reading's rows aligned to MRZ positions", () => {
  it('keeps only rows of exactly the line length', () => {
    const lines = passport('B47302915');
    const row = (text: string) => ({ mrz: { text, probs: [] } }) as unknown as MrzRow;
    expect(pageMrzLines([row(lines[0]!), row(lines[1]!.slice(1))], 'TD3')).toEqual([lines[0], null]);
  });
});
