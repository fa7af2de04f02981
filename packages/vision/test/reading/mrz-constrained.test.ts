import { MRZ_LAYOUTS } from '@idv/core';
import { describe, expect, it } from 'vitest';
import { decodeConstrained } from '../../src/mrz/constrained-decode.ts';
import { type LinePosteriors, MRZ_MODEL_CLASSES } from '../../src/mrz/line-model.ts';
import { decodeMrzLines } from '../../src/mrz/model-read.ts';
import { positionSets } from '../../src/mrz/positions.ts';
import { TWO_NAMES_PASSPORT_ZONE } from '../support/mrz-zones.ts';

/**
 * Format-constrained decoding and check-digit repair on hand-made recogniser outputs: what the
 * decoder may and may not do with what the recogniser saw, independent of any model's accuracy.
 */

type Dist = Record<string, number>;

/**
 * Posteriors of a line: every character gets `framesPerChar` steps with its distribution (the
 * rest of the mass on blank), followed by a blank step unless `noBlanks`.
 */
function posteriors(
  chars: Dist[],
  opts: { framesPerChar?: number; noBlanks?: boolean } = {},
): LinePosteriors {
  const C = MRZ_MODEL_CLASSES.length;
  const frames: Float32Array[] = [];
  const blank = () => {
    const f = new Float32Array(C);
    f[0] = 1;
    return f;
  };
  frames.push(blank());
  for (const d of chars) {
    for (let k = 0; k < (opts.framesPerChar ?? 2); k++) {
      const f = new Float32Array(C);
      let mass = 0;
      for (const [ch, p] of Object.entries(d)) {
        f[MRZ_MODEL_CLASSES.indexOf(ch)] = p;
        mass += p;
      }
      f[0] = Math.max(0, 1 - mass);
      frames.push(f);
    }
    if (!opts.noBlanks) frames.push(blank());
  }
  const probs = new Float32Array(frames.length * C);
  frames.forEach((f, t) => {
    probs.set(f, t * C);
  });
  return { probs, steps: frames.length, classes: C };
}

/** A clear reading of `text`: each character at 0.98. */
const clear = (text: string): Dist[] => [...text].map((c) => ({ [c]: 0.98 }));

const TD3 = TWO_NAMES_PASSPORT_ZONE;

describe('format-constrained MRZ decoding', () => {
  it('keeps line lengths exact: a filler run read without blanks between its fillers keeps its length', () => {
    // 39 name positions of fillers that CTC would merge into one '<' without the constraint.
    const line = TD3[0]!;
    const dists = clear(line);
    const p = posteriors(dists, { framesPerChar: 3 });
    const d = decodeConstrained(p, positionSets('TD3')[0]!)!;
    expect(d.text).toHaveLength(44);
    expect(d.text).toBe(line);
    const merged = posteriors(
      [...line].map((c) => ({ [c]: 0.98 })),
      { framesPerChar: 3, noBlanks: true },
    );
    const m = decodeConstrained(merged, positionSets('TD3')[0]!)!;
    expect(m.text).toHaveLength(44);
  });

  it('reads digits in dates and letters in names when the recogniser hesitates between O/0, I/1, S/5', () => {
    const line = TD3[1]!;
    const dists = clear(line);
    // The '0' of the birth date 870412 seen as 'O' (0.6) over '0' (0.35).
    const zero = MRZ_LAYOUTS.TD3.dateOfBirth.start + 2;
    expect(line[zero]).toBe('0');
    dists[zero] = { O: 0.6, '0': 0.35 };
    const d = decodeConstrained(posteriors(dists), positionSets('TD3')[1]!)!;
    expect(d.text).toBe(line);
    const name = clear(TD3[0]!);
    // The 'I' of CHRISTELLE seen as '1'.
    const i = TD3[0]!.indexOf('I');
    name[i] = { '1': 0.7, I: 0.25 };
    expect(decodeConstrained(posteriors(name), positionSets('TD3')[0]!)!.text).toBe(TD3[0]);
  });

  it('turns a hesitant K back into a filler under the filler weight, never a clear K', () => {
    const line = TD3[0]!;
    const sets = positionSets('TD3')[0]!;
    const sep = line.indexOf('<<');
    const dists = clear(line);
    dists[sep] = { K: 0.6, '<': 0.3 };
    expect(decodeConstrained(posteriors(dists), sets)!.text[sep]).toBe('K');
    expect(decodeConstrained(posteriors(dists), sets, { fillerWeight: 3 })!.text).toBe(line);
    const name = 'P<NERKAKOU<<KOFFI<<<<<<<<<<<<<<<<<<<<<<<<<<<';
    const sure = [...name].map((c) => (c === 'K' ? { K: 0.99, '<': 0.001 } : { [c]: 0.98 }));
    expect(decodeConstrained(posteriors(sure), sets, { fillerWeight: 3 })!.text).toBe(name);
  });

  it('never emits a letter where a check digit stands', () => {
    const dists = clear(TD3[1]!);
    dists[19] = { B: 0.9, '8': 0.05, '3': 0.04 };
    const d = decodeConstrained(posteriors(dists), positionSets('TD3')[1]!)!;
    expect(d.text[19]).toMatch(/[0-9]/);
  });
});

describe('check digits choose only among the recogniser alternatives', () => {
  it('a clearly printed wrong check digit stays wrong', () => {
    const wrong = [...TD3[1]!];
    const L = MRZ_LAYOUTS.TD3;
    const at = L.dateOfBirthCheck.start;
    wrong[at] = String((Number(wrong[at]) + 3) % 10);
    const lines = [TD3[0]!, wrong.join('')];
    const r = decodeMrzLines(
      lines.map((l) => posteriors(clear(l))),
      'TD3',
    )!;
    expect(r.lines).toEqual(lines);
    expect(r.parsed.checks.find((c) => c.name === 'date_of_birth')!.valid).toBe(false);
    expect(r.corrected).toBe(false);
  });

  it('repairs a digit when the recogniser itself saw the right one as an alternative', () => {
    const dists = clear(TD3[1]!);
    const L = MRZ_LAYOUTS.TD3;
    const true5 = TD3[1]![L.dateOfBirth.start + 5]!;
    const other = true5 === '8' ? '3' : '8';
    dists[L.dateOfBirth.start + 5] = { [other]: 0.55, [true5]: 0.4 };
    const r = decodeMrzLines([posteriors(clear(TD3[0]!)), posteriors(dists)], 'TD3')!;
    expect(r.decoded[1]!.text).not.toBe(TD3[1]);
    expect(r.lines).toEqual(TD3);
    expect(r.parsed.valid).toBe(true);
    expect(r.corrected).toBe(true);
  });

  it('does not repair with an alternative the recogniser barely saw', () => {
    const dists = clear(TD3[1]!);
    const L = MRZ_LAYOUTS.TD3;
    const true5 = TD3[1]![L.dateOfBirth.start + 5]!;
    const other = true5 === '8' ? '3' : '8';
    dists[L.dateOfBirth.start + 5] = { [other]: 0.97, [true5]: 0.005 };
    const r = decodeMrzLines([posteriors(clear(TD3[0]!)), posteriors(dists)], 'TD3')!;
    expect(r.parsed.checks.find((c) => c.name === 'date_of_birth')!.valid).toBe(false);
  });
});
