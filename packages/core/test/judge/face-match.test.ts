import { describe, expect, it } from 'vitest';
import { faceScore, judge } from '../../src/index.ts';
import { checkOf, NOW, passport, withChanges, withSimilarity } from './fixtures.ts';

describe('face_match check (spec table)', () => {
  // Edges: 0.30 (fail → warn), 0.45 (warn → pass), 0.60 (score reaches 1).
  it.each([
    [0, 'fail', 0],
    [0.29, 'fail', 0],
    [0.2999, 'fail', 0],
    [0.3, 'warn', 0],
    [0.36, 'warn', 0.2],
    [0.4499, 'warn', (0.4499 - 0.3) / 0.3],
    [0.45, 'pass', 0.5],
    [0.5, 'pass', 2 / 3],
    [0.57, 'pass', 0.9],
    [0.6, 'pass', 1],
    [0.85, 'pass', 1],
  ] as const)('similarity %d → %s, check score %d', (similarity, status, score) => {
    const j = judge(withSimilarity(passport(), similarity), { now: NOW });
    const c = checkOf(j, 'face_match');
    expect(c.status).toBe(status);
    expect(c.score).toBe(Math.round(score * 10_000) / 10_000);
    expect(j.face_match).toEqual({
      similarity,
      matched: status === 'pass',
      faces_in_document: 1,
      faces_in_selfie: 1,
    });
  });

  it('below 0.30 the whole score is set to 0', () => {
    const j = judge(withSimilarity(passport(), 0.29), { now: NOW });
    expect(j.score).toBe(0);
    expect(j.verdict).toBe('rejected');
    expect(checkOf(j, 'face_match').explanation.en).toMatch(/does not match.*0.29, minimum 0.30/);
  });

  it('a similarity just under 0.30 is shown truncated, never as 0.30', () => {
    const j = judge(withSimilarity(passport(), 0.2999), { now: NOW });
    expect(checkOf(j, 'face_match').explanation.en).toMatch(/similarity 0.29,/);
  });

  it('at 0.30 exactly: warn, score 0, the total is not zeroed', () => {
    const j = judge(withSimilarity(passport(), 0.3), { now: NOW });
    // 20 + 10 + 20 + 15 of 100 (face score 0) = 0.65: review.
    expect(j.score).toBe(0.65);
    expect(j.verdict).toBe('review');
  });

  it('at 0.45 exactly: pass; 0.35×0.5 + 0.65 = 0.825 → 0.83, review', () => {
    const j = judge(withSimilarity(passport(), 0.45), { now: NOW });
    expect(j.score).toBe(0.83);
    expect(j.verdict).toBe('review');
  });

  it('skipped without a selfie; face_match is null and the weights go to the other checks', () => {
    const j = judge(withChanges(passport(), { face: null }), { now: NOW });
    expect(checkOf(j, 'face_match')).toMatchObject({ status: 'skipped', score: null });
    expect(j.face_match).toBeNull();
    expect(j.score).toBe(1);
    expect(j.verdict).toBe('verified');
  });

  it('fail: no face in the selfie (not grave: cap 0.89)', () => {
    const j = judge(
      withChanges(passport(), { face: { faces_in_document: 1, faces_in_selfie: 0, similarity: null } }),
      {
        now: NOW,
      },
    );
    expect(checkOf(j, 'face_match')).toMatchObject({ status: 'fail', score: 0 });
    expect(checkOf(j, 'face_match').explanation.en).toMatch(/No face found on the selfie/);
    expect(j.score).toBe(0.65);
    expect(j.face_match).toMatchObject({ similarity: 0, matched: false, faces_in_selfie: 0 });
  });

  it('fail: several faces in the selfie', () => {
    const j = judge(
      withChanges(passport(), { face: { faces_in_document: 1, faces_in_selfie: 2, similarity: 0.7 } }),
      {
        now: NOW,
      },
    );
    expect(checkOf(j, 'face_match')).toMatchObject({ status: 'fail', score: 0 });
    expect(checkOf(j, 'face_match').explanation.en).toMatch(/2 faces on the selfie/);
    expect(j.verdict).toBe('review');
    expect(j.face_match?.matched).toBe(false);
  });

  it('fail: portrait not found on the document → grave, cap 0.50', () => {
    const j = judge(
      withChanges(passport(), {
        portrait_found: false,
        face: { faces_in_document: 0, faces_in_selfie: 1, similarity: null },
      }),
      { now: NOW },
    );
    expect(checkOf(j, 'face_match')).toMatchObject({ status: 'fail', score: 0 });
    expect(checkOf(j, 'face_match').explanation.en).toMatch(/Portrait not found/);
    expect(j.score).toBeLessThanOrEqual(0.5);
    expect(j.verdict).toBe('rejected');
  });

  it('fail: faces found but not comparable (similarity null)', () => {
    const j = judge(withSimilarity(passport(), null), { now: NOW });
    expect(checkOf(j, 'face_match')).toMatchObject({ status: 'fail', score: 0 });
  });

  it('faceScore rises linearly from 0 at 0.30 to 1 at 0.60, clamped outside', () => {
    expect(faceScore(0.1)).toBe(0);
    expect(faceScore(0.3)).toBe(0);
    expect(faceScore(0.45)).toBeCloseTo(0.5, 12);
    expect(faceScore(0.6)).toBe(1);
    expect(faceScore(0.99)).toBe(1);
  });
});
