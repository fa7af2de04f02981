import { describe, expect, it } from 'vitest';
import type { MrzReadingLine } from '../../src/mrz/correct.ts';
import { nameLineDoubtful } from '../../src/mrz/name.ts';
import { editDistance, voteReadings } from '../../src/mrz/vote.ts';

const reading = (text: string, prob = 0.9, low: Record<number, number> = {}): MrzReadingLine => ({
  text,
  probs: [...text].map((_, i) => low[i] ?? prob),
});

describe('voting between readings of the name line', () => {
  it('keeps a reading that every variant agrees on', () => {
    const line = 'ADJOVI<<KOFFI<ELOM<<<<<<<<<<<<';
    expect(voteReadings([reading(line), reading(line), reading(line)]).text).toBe(line);
  });

  it('outvotes a filler read as K by one reading', () => {
    const right = 'AMEGAVI<AMEGAVI<<KAFUI<<<<<<<<';
    const wrong = reading('AMEGAVI<AMEGAVI<<KAFUIK<<<<<<<', 0.95, { 22: 0.66 });
    const voted = voteReadings([
      wrong,
      reading(right, 0.9),
      reading(right, 0.85),
      reading('AMEGAVI<AMEGAVI<<KAFUI<<<<<<<K', 0.9),
    ]);
    expect(voted.text).toBe(right);
  });

  it('restores a narrow letter dropped by some readings when others read it', () => {
    const right = 'P<TGOBIO<<ELI<AMA<<<<<<<<<<<<<<<<<<<<<<<<<<<';
    const dropped = 'P<TGOBIO<<EL<AMA<<<<<<<<<<<<<<<<<<<<<<<<<<<<';
    const voted = voteReadings([
      reading(dropped, 0.8),
      reading(dropped, 0.85),
      reading(right, 0.9),
      reading(right, 0.85),
    ]);
    // The filler run's length is repaired afterwards by the corrector (it knows the format).
    expect(voted.text.replace(/<+$/, '')).toBe(right.replace(/<+$/, ''));
  });

  it('does not take a letter that only one reading saw', () => {
    const right = 'KOMLAN<<SENA<<<<<<<<<<<<<<<<<<';
    const extra = 'KOMLAN<<SENAL<<<<<<<<<<<<<<<<<';
    expect(voteReadings([reading(right), reading(right), reading(extra, 0.7)]).text).toBe(right);
  });

  it('measures edit distance', () => {
    expect(editDistance('ELI<AMA', 'EL<AMA')).toBe(1);
    expect(editDistance('KAFUIK', 'KAFUI<')).toBe(1);
    expect(editDistance('', 'ABC')).toBe(3);
  });
});

describe('when the name line is doubtful', () => {
  it('is doubtful when a letter was read with low confidence, not for low-confidence trailing fillers', () => {
    const line = 'ADJOVI<<KOFFI<ELOM<<<<<<<<<<<<';
    expect(nameLineDoubtful(reading(line, 0.95), 'TD1')).toBe(false);
    const lowFillers = reading(line, 0.95, { 25: 0.5, 26: 0.5, 29: 0.4 });
    expect(nameLineDoubtful(lowFillers, 'TD1')).toBe(false);
    expect(nameLineDoubtful(reading(line, 0.95, { 3: 0.6 }), 'TD1')).toBe(true);
  });

  it('is doubtful when its length is far from the format', () => {
    expect(nameLineDoubtful(reading('P<TGOAGBEKO<<AKU<<<<<<<<', 0.99), 'TD3')).toBe(true);
  });
});
