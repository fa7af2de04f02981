import { describe, expect, it } from 'vitest';
import { type BlockInkMeasure, mrzCandidates } from '../../src/mrz/locate.ts';
import { readLine } from '../support/page-lines.ts';

/**
 * A block that is an MRZ only as its ink says (locate.ts inkExtension, `inkOnly`): every row
 * measured must measure the format, and one of a TD1's three rows may go unmeasured (a halftone
 * or tilted row whose ink profile gives no pitch); two rows need both measured.
 */

/** A TD1 read as a degraded back is: the first row whole, the others without their fillers. */
const TD1_READ = ['I<BFA417433961<624019884<<<<<<', '0401191F3511071BFA0', 'ALMOUSTAPHAMARIETOUASSETOU'];
/** A TD2 read with its second row short (its fillers lost). */
const TD2_READ = ['I<NERTRAORE<<AWA<<<<<<<<<<<<<<<<<<<<', '1234567897NER900101'];

/** An ink measure giving each row `counts` (null: not measurable) and their median. */
function ink(counts: (number | null)[]): BlockInkMeasure {
  return (rows) => {
    if (rows.length !== counts.length) return null;
    const known = counts.filter((c): c is number => c !== null).sort((a, b) => a - b);
    if (known.length === 0) return null;
    return { chars: known[Math.floor(known.length / 2)]!, rows, counts };
  };
}

const td1Lines = TD1_READ.map((t, i) => readLine(t, 100 + 40 * i));
const td2Lines = TD2_READ.map((t, i) => readLine(t, 100 + 40 * i));
const formats = (c: ReturnType<typeof mrzCandidates>) => c.map((k) => [k.format, k.extended]);

describe('MRZ blocks taken by their ink', () => {
  it('takes a TD1 whose three rows measure 30', () => {
    expect(formats(mrzCandidates(td1Lines, ink([30, 30, 29])))).toContainEqual(['TD1', true]);
  });

  it('takes a TD1 with one row unmeasured when the two others measure 30', () => {
    expect(formats(mrzCandidates(td1Lines, ink([null, 30, 31])))).toContainEqual(['TD1', true]);
  });

  it('takes no TD1 with two rows unmeasured, or a measured row of another length', () => {
    expect(formats(mrzCandidates(td1Lines, ink([null, null, 30])))).not.toContainEqual(['TD1', true]);
    expect(formats(mrzCandidates(td1Lines, ink([null, 30, 36])))).not.toContainEqual(['TD1', true]);
  });

  it('takes no two-row block with a row unmeasured', () => {
    expect(formats(mrzCandidates(td2Lines, ink([36, 36])))).toContainEqual(['TD2', true]);
    expect(formats(mrzCandidates(td2Lines, ink([36, null])))).not.toContainEqual(['TD2', true]);
  });
});
