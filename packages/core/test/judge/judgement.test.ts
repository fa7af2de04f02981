import { describe, expect, it } from 'vitest';
import { CHECK_ORDER, judge, newId, VerificationSchema } from '../../src/index.ts';
import {
  biometricCard,
  NOW,
  paperCard,
  passport,
  withChanges,
  withMrzChar,
  withSimilarity,
} from './fixtures.ts';

const samples = {
  passport: passport(),
  card: biometricCard(),
  paperCard: paperCard(),
  noSelfie: withChanges(passport(), { face: null }),
  badDigit: withMrzChar(passport(), 1, 9, '0'),
  weakFace: withSimilarity(passport(), 0.35),
  noMrz: withChanges(biometricCard(), { mrz: null }),
};

describe('judgement shape', () => {
  it.each(Object.entries(samples))(
    '%s: five checks in order, score null exactly when skipped',
    (_name, obs) => {
      const j = judge(obs, { now: NOW });
      expect(j.checks.map((c) => c.name)).toEqual(CHECK_ORDER);
      expect(CHECK_ORDER).toEqual(['mrz_checksum', 'expiry', 'viz_mrz_consistency', 'tamper', 'face_match']);
      for (const c of j.checks) {
        expect(c.score === null).toBe(c.status === 'skipped');
        expect(c.explanation.fr.length).toBeGreaterThan(10);
        expect(c.explanation.en.length).toBeGreaterThan(10);
      }
      expect(j.score).toBe(Math.round(j.score * 100) / 100);
      expect(j.fields).toEqual(j.document.fields);
      expect(j.status).toBe(j.verdict.toUpperCase());
    },
  );

  it.each(Object.entries(samples))(
    '%s: a Verification built from it satisfies VerificationSchema',
    (_name, obs) => {
      const j = judge(obs, { now: NOW });
      const verification = {
        id: newId('vrf'),
        verdict: j.verdict,
        final_verdict: null,
        status: j.status,
        score: j.score,
        document_type: j.document_type,
        checks: j.checks,
        latency_ms: 4321,
        created_at: NOW.toISOString(),
        document: j.document,
        fields: j.fields,
        face_match: j.face_match,
        timings: { ocr_ms: 1200, total_ms: 4321 },
        mode: 'test',
      };
      expect(VerificationSchema.parse(verification)).toEqual(verification);
    },
  );

  it('VerificationSchema rejects what the spec forbids', () => {
    const j = judge(passport(), { now: NOW });
    const ok = {
      id: 'vrf_abc123',
      verdict: j.verdict,
      final_verdict: null,
      status: j.status,
      score: j.score,
      document_type: j.document_type,
      checks: j.checks,
      latency_ms: 1,
      created_at: '2025-06-01T10:00:00.000Z',
      document: j.document,
      fields: j.fields,
      face_match: j.face_match,
      timings: {},
      mode: 'live',
    };
    expect(VerificationSchema.safeParse(ok).success).toBe(true);
    for (const bad of [
      { id: 'ver_abc123' },
      { verdict: 'VERIFIED' },
      { score: 1.2 },
      { created_at: '2025-06-01T10:00:00+02:00' },
      { checks: j.checks.slice(0, 4) },
      { latency_ms: 1.5 },
      { final_verdict: 'review' },
      { mode: 'prod' },
    ]) {
      expect(VerificationSchema.safeParse({ ...ok, ...bad }).success).toBe(false);
    }
  });
});

describe('document fields', () => {
  it('MRZ values when the MRZ is valid; printed names kept when they are the same name', () => {
    const obs = withChanges(biometricCard(), { printed: { date_of_birth: '1985-11-21' } });
    const j = judge(obs, { now: NOW });
    expect(j.fields).toEqual({
      surname: 'KEÏTA',
      given_names: 'Modibo',
      date_of_birth: '1985-11-20', // the MRZ value, whose check digit holds
      sex: 'M',
      nationality: 'MLI',
      place_of_birth: 'Bamako',
      document_number: '12345678901234567',
      date_of_issue: '2022-07-01',
      date_of_expiry: '2032-06-30',
      issuing_authority: null,
    });
    expect(j.document.country).toBe('MLI');
  });

  it('printed values when the MRZ is invalid', () => {
    const j = judge(withMrzChar(biometricCard(), 1, 29, '0'), { now: NOW });
    expect(j.document.mrz?.valid).toBe(false);
    expect(j.fields.document_number).toBe('1234 5678 9012 34567');
    expect(j.fields.nationality).toBeNull();
  });

  it('the MRZ name when the printed one is a different name', () => {
    const j = judge(withChanges(passport(), { printed: { surname: 'TRAORE' } }), { now: NOW });
    expect(j.fields.surname).toBe('MAIGA');
  });

  it('paper card: printed fields, no expiry date printed, dates ISO only', () => {
    const j = judge(withChanges(paperCard(), { printed: { date_of_birth: '02/05/1978' } }), { now: NOW });
    expect(j.fields).toMatchObject({
      surname: 'ISSOUFOU',
      document_number: '123/45/ZR',
      date_of_issue: '2022-03-15',
      date_of_expiry: null,
      date_of_birth: null,
    });
    expect(j.document.country).toBe('NER');
  });
});
