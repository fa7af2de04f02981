import { describe, expect, it } from 'vitest';
import { judge } from '../../src/index.ts';
import { checkOf, NOW, paperCard, withChanges, withSimilarity } from './fixtures.ts';

describe('Niger paper card (spec "Supported documents")', () => {
  it('verified when all conditions hold: the no-MRZ cap does not apply', () => {
    const j = judge(paperCard(), { now: NOW });
    // mrz_checksum and viz_mrz_consistency skipped: (0.35 × 1 + 0.15 × 0.8 + 0.10 × 1) / 0.60 = 0.95
    expect(j.score).toBe(0.95);
    expect(j.verdict).toBe('verified');
    expect(j.scoring.paper_card_exception).toBe(true);
    expect(j.document.mrz).toBeNull();
    expect(j.document_type).toBe('cni');
  });

  it('"about 0.57 is needed to reach 0.90": the lowest similarity giving verified is 0.57 to 2 decimals', () => {
    let lowest: number | null = null;
    for (let milli = 500; milli <= 700; milli++) {
      const s = milli / 1000;
      if (judge(withSimilarity(paperCard(), s), { now: NOW }).verdict === 'verified') {
        lowest = s;
        break;
      }
    }
    expect(lowest).not.toBeNull();
    expect(lowest!).toBeGreaterThanOrEqual(0.565);
    expect(lowest!).toBeLessThan(0.575);
    expect(judge(withSimilarity(paperCard(), lowest!), { now: NOW }).score).toBe(0.9);
    expect(judge(withSimilarity(paperCard(), 0.56), { now: NOW }).verdict).toBe('review');
    expect(judge(withSimilarity(paperCard(), 0.58), { now: NOW }).verdict).toBe('verified');
  });

  it('at similarity 0.50 exactly the exception holds but the score (0.76) is review', () => {
    const j = judge(withSimilarity(paperCard(), 0.5), { now: NOW });
    expect(j.scoring.paper_card_exception).toBe(true);
    // (0.35 × 2/3 + 0.12 + 0.10) / 0.60 = 0.7556
    expect(j.score).toBe(0.76);
    expect(j.verdict).toBe('review');
  });

  it('at similarity 0.49 the exception is lost', () => {
    const j = judge(withSimilarity(paperCard(), 0.49), { now: NOW });
    expect(j.scoring.paper_card_exception).toBe(false);
    expect(j.scoring.caps.find((c) => c.rule === 'no_mrz')?.reasons[0]).toMatch(/faceSimilarity/);
  });

  it.each([
    ['no selfie', { face: null }, 'faceSimilarity'],
    [
      'a tamper sign, even a low one',
      { tamper: [{ type: 'photocopy', severity: 'low', side: 'front', strength: 0.3 }] },
      'noTamperSign',
    ],
    [
      'a medium glare',
      { tamper: [{ type: 'glare', severity: 'medium', side: 'front', strength: 0.3 }] },
      'noTamperSign',
    ],
    ['no given names read', { printed: { given_names: null } }, 'cleanReading'],
    ['no surname read', { printed: { surname: null } }, 'cleanReading'],
    ['no date of birth read', { printed: { date_of_birth: null } }, 'cleanReading'],
    ['no number read', { printed: { document_number: null } }, 'cleanReading'],
    ['a poorly legible reading', { document: { legibility: 0.55 } }, 'cleanReading'],
  ] as const)('review (capped at 0.85) with %s', (_label, changes, unmet) => {
    const j = judge(withChanges(paperCard(), changes as never), { now: NOW });
    expect(j.scoring.paper_card_exception).toBe(false);
    expect(j.score).toBeLessThanOrEqual(0.85);
    expect(j.verdict).toBe('review');
    expect(j.scoring.caps.find((c) => c.rule === 'no_mrz')?.reasons[0]).toContain(unmet);
  });

  it('expired (issued more than 5 years ago): score 0, rejected', () => {
    const j = judge(withChanges(paperCard(), { printed: { date_of_issue: '2019-01-10' } }), { now: NOW });
    expect(checkOf(j, 'expiry').explanation.en).toMatch(
      /valid for 5 years after issue, that is until 10 January 2024/,
    );
    expect(j.score).toBe(0);
    expect(j.verdict).toBe('rejected');
  });

  it('a Sahel biometric card without its MRZ never gets the exception', () => {
    const card = withChanges(paperCard(), {
      document: { layout: 'td1' },
      printed: { date_of_expiry: '2030-01-01' },
    });
    const j = judge(card, { now: NOW });
    expect(j.score).toBe(0.85);
    expect(j.verdict).toBe('review');
  });
});
