import { describe, expect, it } from 'vitest';
import { judge, type Severity, type TamperType } from '../../src/index.ts';
import { checkOf, NOW, paperCard, passport, withChanges } from './fixtures.ts';

const signal = (type: TamperType, severity: Severity, field?: string) => ({
  type,
  severity,
  side: 'front' as const,
  strength: 0.9,
  ...(field ? { field } : {}),
});

describe('tamper check (spec tables)', () => {
  it('pass without any sign', () => {
    const c = checkOf(judge(passport(), { now: NOW }), 'tamper');
    expect(c).toMatchObject({ status: 'pass', score: 1, details: { anomalies: [] } });
  });

  // Spec "Tamper anomaly types": maximum effect fail for signs of tampering, warn for capture problems.
  it.each([
    ['photo_of_screen', 'high', 'fail', 0],
    ['photocopy', 'high', 'fail', 0],
    ['font_inconsistency', 'high', 'fail', 0],
    ['portrait_edge', 'high', 'fail', 0],
    ['field_overwritten', 'high', 'fail', 0],
    ['photo_of_screen', 'medium', 'warn', 0.4],
    ['photocopy', 'low', 'warn', 0.7],
    ['glare', 'high', 'warn', 0.5],
    ['blur', 'high', 'warn', 0.5],
    ['partial_document', 'high', 'warn', 0.5],
    ['glare', 'medium', 'warn', 0.7],
    ['blur', 'low', 'pass', 0.9],
  ] as const)('%s (%s) → %s, score %d', (type, severity, status, score) => {
    const j = judge(withChanges(passport(), { tamper: [signal(type, severity)] }), { now: NOW });
    const c = checkOf(j, 'tamper');
    expect(c).toMatchObject({ status, score });
    expect(c.details?.anomalies).toEqual([{ type, severity, explanation: expect.any(Object) }]);
    if (status === 'fail') {
      expect(j.verdict).not.toBe('verified');
      expect(j.score).toBeLessThanOrEqual(0.89);
    }
  });

  it('capture problems never fail the check, even together and all high', () => {
    const tamper = [signal('glare', 'high'), signal('blur', 'high'), signal('partial_document', 'high')];
    const c = checkOf(judge(withChanges(passport(), { tamper }), { now: NOW }), 'tamper');
    expect(c.status).toBe('warn');
    expect(c.explanation.en).toMatch(/never fails this check alone/);
  });

  it('the worst sign decides; the explanation repeats each one with its field and side', () => {
    const tamper = [signal('glare', 'medium'), signal('field_overwritten', 'high', 'date_of_birth')];
    const c = checkOf(judge(withChanges(passport(), { tamper }), { now: NOW }), 'tamper');
    expect(c).toMatchObject({ status: 'fail', score: 0 });
    expect(c.explanation.en).toMatch(/overwritten field \(date of birth\), high severity, front/);
    expect(c.explanation.fr).toMatch(/champ surchargé \(date de naissance\), gravité forte, recto/);
    expect(c.details?.anomalies.map((a) => a.explanation.en)).toEqual([
      'Glare, medium severity, front.',
      'Overwritten field (date of birth), high severity, front.',
    ]);
  });

  it('an invisible portrait fails it', () => {
    const j = judge(withChanges(passport(), { portrait_found: false, face: null }), { now: NOW });
    const c = checkOf(j, 'tamper');
    expect(c).toMatchObject({ status: 'fail', score: 0 });
    expect(c.explanation.en).toMatch(/portrait is not visible/);
    expect(j.verdict).toBe('review');
  });

  it.each([
    [0.39, 'fail'],
    [0.4, 'pass'],
  ])('legibility %d → %s (very low legibility fails it; threshold 0.40)', (legibility, status) => {
    const c = checkOf(judge(withChanges(passport(), { document: { legibility } }), { now: NOW }), 'tamper');
    expect(c.status).toBe(status);
    if (status === 'fail')
      expect(c.explanation.en).toMatch(/barely legible \(legibility 0.39, minimum 0.40\)/);
  });

  it('on the paper card: at most 0.80, and the explanation says stamps and wear are normal', () => {
    const c = checkOf(judge(paperCard(), { now: NOW }), 'tamper');
    expect(c).toMatchObject({ status: 'pass', score: 0.8 });
    expect(c.explanation.fr).toMatch(
      /cachets, timbre fiscal, empreinte, écriture manuscrite et usure sont normaux/,
    );
  });
});
