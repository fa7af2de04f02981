import { describe, expect, it } from 'vitest';
import { judge } from '../../src/index.ts';
import { checkOf, NOW, paperCard, passport, withChanges, withSimilarity } from './fixtures.ts';

/** The two worked examples of docs/scoring.md, so the document cannot drift from the code. */
describe('docs/scoring.md worked examples', () => {
  it('1. a passport verified (similarity 0.55, slight glare)', () => {
    const obs = withChanges(withSimilarity(passport(), 0.55), {
      tamper: [{ type: 'glare', severity: 'low', side: 'front', strength: 0.3 }],
    });
    const j = judge(obs, { now: NOW });
    expect(j.checks.map((c) => [c.name, c.status, c.score])).toEqual([
      ['mrz_checksum', 'pass', 1],
      ['expiry', 'pass', 1],
      ['viz_mrz_consistency', 'pass', 1],
      ['tamper', 'pass', 0.9],
      ['face_match', 'pass', 0.8333],
    ]);
    expect(j.scoring.average).toBeCloseTo(0.926655, 6);
    expect(j.scoring.caps).toEqual([]);
    expect(j.score).toBe(0.93);
    expect(j.verdict).toBe('verified');
  });

  it('2. a Niger paper card sent to review (similarity 0.55)', () => {
    const j = judge(withSimilarity(paperCard(), 0.55), { now: NOW });
    expect(j.checks.map((c) => [c.name, c.status, c.score])).toEqual([
      ['mrz_checksum', 'skipped', null],
      ['expiry', 'pass', 1],
      ['viz_mrz_consistency', 'skipped', null],
      ['tamper', 'pass', 0.8],
      ['face_match', 'pass', 0.8333],
    ]);
    expect(checkOf(j, 'expiry').explanation.en).toContain(
      'valid for 5 years after issue, that is until 15 March 2027',
    );
    expect(j.scoring.average).toBeCloseTo(0.852758, 6);
    expect(j.scoring.paper_card_exception).toBe(true);
    expect(j.score).toBe(0.85);
    expect(j.verdict).toBe('review');
  });
});
