import { describe, expect, it } from 'vitest';
import {
  applyCaps,
  type Check,
  type CheckOutcome,
  contextOf,
  judge,
  roundScore,
  SCORING,
  verdictOf,
  weightedAverage,
} from '../../src/index.ts';
import {
  biometricCard,
  checkOf,
  NOW,
  passport,
  withChanges,
  withMrzChar,
  withSimilarity,
} from './fixtures.ts';

const check = (name: Check['name'], status: Check['status'], score: number | null): Check => ({
  name,
  status,
  score,
  explanation: { fr: '-', en: '-' },
});

describe('weights 35/20/20/15/10 (spec "Scoring rules")', () => {
  it('are the spec values and sum to 1', () => {
    expect(SCORING.weights).toEqual({
      face_match: 0.35,
      mrz_checksum: 0.2,
      viz_mrz_consistency: 0.2,
      tamper: 0.15,
      expiry: 0.1,
    });
    expect(Object.values(SCORING.weights).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it.each([
    ['face_match', 0.35],
    ['mrz_checksum', 0.2],
    ['viz_mrz_consistency', 0.2],
    ['tamper', 0.15],
    ['expiry', 0.1],
  ] as const)('a %s score of 0 alone costs %d', (name, weight) => {
    const checks = (['mrz_checksum', 'expiry', 'viz_mrz_consistency', 'tamper', 'face_match'] as const).map(
      (n) => check(n, 'pass', n === name ? 0 : 1),
    );
    expect(weightedAverage(checks)).toBeCloseTo(1 - weight, 12);
  });

  it('a skipped check costs nothing: its weight is redistributed', () => {
    const checks = [
      check('mrz_checksum', 'skipped', null),
      check('expiry', 'pass', 1),
      check('viz_mrz_consistency', 'skipped', null),
      check('tamper', 'pass', 0.5),
      check('face_match', 'pass', 1),
    ];
    // (0.10 + 0.15 × 0.5 + 0.35) / 0.60
    expect(weightedAverage(checks)).toBeCloseTo(0.525 / 0.6, 12);
  });

  it('end to end: a passport without selfie and a medium glare', () => {
    const obs = withChanges(passport(), {
      face: null,
      tamper: [{ type: 'glare', severity: 'medium', side: 'front', strength: 0.5 }],
    });
    const j = judge(obs, { now: NOW });
    // (0.20 + 0.10 + 0.20 + 0.15 × 0.7) / 0.65 = 0.9308 → 0.93
    expect(j.scoring.average).toBeCloseTo(0.605 / 0.65, 12);
    expect(j.score).toBe(0.93);
    expect(j.verdict).toBe('verified');
  });
});

describe('rounding to 2 decimals before the verdict', () => {
  it.each([
    [0.895, 0.9],
    [0.8949, 0.89],
    [0.825, 0.83],
    [0.59499, 0.59],
    [0.595, 0.6],
    [1, 1],
    [0, 0],
  ])('%d → %d', (x, r) => {
    expect(roundScore(x)).toBe(r);
  });
});

describe('caps (spec rules 1-5, in DESIGN.md order)', () => {
  const outcome = (c: Check, flags: { grave?: string; zero?: string } = {}): CheckOutcome => ({
    check: c,
    grave: flags.grave ?? null,
    zero: flags.zero ?? null,
  });
  const clean = () => ({
    mrz_checksum: outcome(check('mrz_checksum', 'pass', 1)),
    expiry: outcome(check('expiry', 'pass', 1)),
    viz_mrz_consistency: outcome(check('viz_mrz_consistency', 'pass', 1)),
    tamper: outcome(check('tamper', 'pass', 1)),
    face_match: outcome(check('face_match', 'pass', 1)),
  });
  const ctx = contextOf(passport(), NOW);

  it('no rule: the rounded average', () => {
    expect(applyCaps(0.934, ctx, clean()).score).toBe(0.93);
  });

  it('rule 1: a check in fail caps below 0.90 (at most 0.89)', () => {
    const o = { ...clean(), tamper: outcome(check('tamper', 'fail', 0)) };
    expect(applyCaps(0.97, ctx, o).score).toBe(0.89);
    expect(applyCaps(0.7, ctx, o).score).toBe(0.7);
  });

  it('rule 2: a grave failure caps at 0.50', () => {
    const o = { ...clean(), mrz_checksum: outcome(check('mrz_checksum', 'fail', 0), { grave: 'x' }) };
    expect(applyCaps(0.8, ctx, o).score).toBe(0.5);
    expect(applyCaps(0.42, ctx, o).score).toBe(0.42);
  });

  it('rule 3: expired or similarity below 0.30 sets the score to 0', () => {
    const o = { ...clean(), expiry: outcome(check('expiry', 'fail', 0), { zero: 'expired document' }) };
    expect(applyCaps(0.9, ctx, o).score).toBe(0);
  });

  it('rule 4: no MRZ caps at 0.85', () => {
    const noMrz = contextOf(withChanges(biometricCard(), { mrz: null }), NOW);
    expect(applyCaps(1, noMrz, clean()).score).toBe(0.85);
    expect(applyCaps(1, noMrz, clean()).caps).toEqual([
      { rule: 'no_mrz', limit: 0.85, reasons: ['no MRZ on the document'] },
    ]);
  });

  it('rule 5 and the order: grave, then zero, then fail, then no MRZ; each only lowers', () => {
    const noMrz = contextOf(withChanges(biometricCard(), { mrz: null }), NOW);
    const o = {
      ...clean(),
      expiry: outcome(check('expiry', 'fail', 0), { grave: 'unreadable expiry date' }),
      face_match: outcome(check('face_match', 'fail', 0), { zero: 'face similarity below 0.30' }),
    };
    const { score, caps } = applyCaps(0.95, noMrz, o);
    expect(caps.map((c) => c.rule)).toEqual(['grave', 'zero', 'fail', 'no_mrz']);
    expect(score).toBe(0);
  });

  it('a grave failure cannot be compensated: everything else perfect still ends at 0.50, rejected', () => {
    const obs = passport();
    const j = judge(withMrzChar(obs, 1, 19, String((Number(obs.mrz!.lines[1]![19]) + 1) % 10)), { now: NOW });
    expect(j.scoring.average).toBeCloseTo(0.8, 12);
    expect(j.score).toBe(0.5);
    expect(j.verdict).toBe('rejected');
  });

  it('end to end: expired with a perfect face → 0', () => {
    const j = judge(withChanges(passport(), { printed: { date_of_expiry: '2020-01-01' }, mrz: null }), {
      now: NOW,
    });
    expect(checkOf(j, 'expiry').status).toBe('fail');
    expect(j.score).toBe(0);
  });

  it('end to end: similarity 0.29 on an otherwise perfect passport → 0', () => {
    expect(judge(withSimilarity(passport(), 0.29), { now: NOW }).score).toBe(0);
  });
});

describe('verdict from score (spec "Verdict from score")', () => {
  const passing = (['mrz_checksum', 'expiry', 'viz_mrz_consistency', 'tamper', 'face_match'] as const).map(
    (n) => check(n, 'pass', 1),
  );
  const withFail = passing.map((c) => (c.name === 'tamper' ? check('tamper', 'fail', 0) : c));

  it.each([
    [1, passing, 'verified'],
    [0.9, passing, 'verified'],
    [0.89, passing, 'review'],
    [0.9, withFail, 'review'],
    [0.95, withFail, 'review'],
    [0.6, passing, 'review'],
    [0.59, passing, 'rejected'],
    [0, passing, 'rejected'],
  ] as const)('score %d → %s', (score, checks, verdict) => {
    expect(verdictOf(score, checks)).toBe(verdict);
  });

  it('status is the upper-case repeat of verdict', () => {
    for (const obs of [passport(), withSimilarity(passport(), 0.4), withSimilarity(passport(), 0.1)]) {
      const j = judge(obs, { now: NOW });
      expect(j.status).toBe(j.verdict.toUpperCase());
    }
    expect(judge(withSimilarity(passport(), 0.4), { now: NOW }).verdict).toBe('review');
    expect(judge(withSimilarity(passport(), 0.1), { now: NOW }).verdict).toBe('rejected');
  });

  it('end to end: the score exactly 0.60 is review, 0.59 rejected', () => {
    // Consistency in warn with 4 of 6 fields compared (score 4/6); everything else passes
    // except the face: average = 0.20 + 0.10 + 0.15 + 0.20 × 4/6 + 0.35 f, with f = (s − 0.30) / 0.30.
    const base = withChanges(passport(), { printed: { sex: null, date_of_expiry: null } });
    const at = (s: number) => judge(withSimilarity(base, s), { now: NOW });
    // 0.45 + 0.13333 + 0.35 f = 0.60 → f = 0.047619 → s = 0.3142857
    expect(at(0.3143).score).toBe(0.6);
    expect(at(0.3143).verdict).toBe('review');
    expect(at(0.3).score).toBe(0.58);
    expect(at(0.3).verdict).toBe('rejected');
  });

  it('end to end: the score exactly 0.90 is verified', () => {
    // 0.65 + 0.35 f = 0.90 → f = 5/7 → s = 0.30 + 0.30 × 5/7 = 0.5143
    const j = judge(withSimilarity(passport(), 0.5143), { now: NOW });
    expect(j.score).toBe(0.9);
    expect(j.verdict).toBe('verified');
    const below = judge(withSimilarity(passport(), 0.505), { now: NOW });
    expect(below.score).toBe(0.89);
    expect(below.verdict).toBe('review');
  });
});
