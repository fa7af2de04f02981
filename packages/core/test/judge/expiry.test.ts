import { describe, expect, it } from 'vitest';
import { judge } from '../../src/index.ts';
import { checkOf, NOW, paperCard, passport, passportMrzWith, withChanges, withMrzChar } from './fixtures.ts';

/** The test passport with another expiry in both the MRZ and the printed zone. */
function passportExpiring(iso: string) {
  const obs = passport();
  const yymmdd = iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10);
  const lines = passportMrzWith({ dateOfExpiry: yymmdd });
  return withChanges(obs, { mrz: { ...obs.mrz!, lines }, printed: { date_of_expiry: iso } });
}

describe('expiry check (spec table)', () => {
  it('pass: valid at the verification date', () => {
    const c = checkOf(judge(passportExpiring('2030-01-01'), { now: NOW }), 'expiry');
    expect(c).toMatchObject({ status: 'pass', score: 1 });
    expect(c.explanation.en).toMatch(/1 January 2030.*MRZ/);
  });

  it('pass: the expiry day itself is still valid (expiry today)', () => {
    const j = judge(passportExpiring('2025-06-01'), { now: NOW });
    expect(checkOf(j, 'expiry')).toMatchObject({ status: 'pass', score: 1 });
    expect(j.verdict).toBe('verified');
  });

  it('fail: expired the day before → score set to 0, rejected', () => {
    const j = judge(passportExpiring('2025-05-31'), { now: NOW });
    const c = checkOf(j, 'expiry');
    expect(c).toMatchObject({ status: 'fail', score: 0 });
    expect(c.explanation.en).toMatch(/expired.*31 May 2025/i);
    expect(c.explanation.fr).toMatch(/expiré.*31 mai 2025/);
    expect(j.score).toBe(0);
    expect(j.verdict).toBe('rejected');
  });

  it('uses the UTC date of the verification', () => {
    // 23:30 in UTC-5 on 31 May is already 1 June in UTC.
    const late = new Date('2025-05-31T23:30:00-05:00');
    expect(checkOf(judge(passportExpiring('2025-05-31'), { now: late }), 'expiry').status).toBe('fail');
    // 00:30 in UTC+2 on 1 June is still 31 May in UTC.
    const early = new Date('2025-06-01T00:30:00+02:00');
    expect(checkOf(judge(passportExpiring('2025-05-31'), { now: early }), 'expiry').status).toBe('pass');
  });

  it('the MRZ date comes first: a wrong printed date does not matter', () => {
    const obs = withChanges(passport(), { printed: { date_of_expiry: '2020-01-01' } });
    const j = judge(obs, { now: NOW });
    expect(checkOf(j, 'expiry').status).toBe('pass');
  });

  it('the printed date is used when the MRZ expiry digit fails', () => {
    const obs = withMrzChar(passport(), 1, 27, '0'); // expiry check digit broken
    const expired = withChanges(obs, { printed: { date_of_expiry: '2024-12-31' } });
    const c = checkOf(judge(expired, { now: NOW }), 'expiry');
    expect(c.status).toBe('fail');
    expect(c.explanation.en).toMatch(/printed zone/);
  });

  it('the printed date is used without an MRZ', () => {
    const obs = withChanges(passport(), { mrz: null, printed: { date_of_expiry: '2027-02-03' } });
    const c = checkOf(judge(obs, { now: NOW }), 'expiry');
    expect(c.status).toBe('pass');
    expect(c.explanation.en).toMatch(/3 February 2027.*printed/);
  });

  it('fail: unreadable date → grave, score capped at 0.50', () => {
    const obs = withChanges(passport(), { mrz: null, printed: { date_of_expiry: null } });
    const j = judge(obs, { now: NOW });
    expect(checkOf(j, 'expiry')).toMatchObject({ status: 'fail', score: 0 });
    expect(j.score).toBeLessThanOrEqual(0.5);
    expect(j.scoring.caps.find((c) => c.rule === 'grave')?.reasons).toContain('unreadable expiry date');
  });

  it('a printed date that is not a real date counts as unreadable', () => {
    const obs = withChanges(passport(), { mrz: null, printed: { date_of_expiry: '2027-02-30' } });
    expect(checkOf(judge(obs, { now: NOW }), 'expiry').status).toBe('fail');
  });
});

describe('expiry of the Niger paper card: 5 years after issue', () => {
  it.each([
    ['2020-06-01', 'pass'], // expires today, 2025-06-01: still valid
    ['2020-05-31', 'fail'], // expired yesterday
    ['2024-01-10', 'pass'],
  ])('issued %s → %s', (issued, status) => {
    const j = judge(withChanges(paperCard(), { printed: { date_of_issue: issued } }), { now: NOW });
    const c = checkOf(j, 'expiry');
    expect(c.status).toBe(status);
    expect(c.explanation.en).toMatch(/valid for 5 years after issue/);
    expect(c.explanation.fr).toMatch(/valable 5 ans après sa délivrance/);
    if (status === 'fail') expect(j.score).toBe(0);
  });

  it('a card issued on 29 February is valid until 28 February five years later', () => {
    const obs = withChanges(paperCard(), { printed: { date_of_issue: '2020-02-29' } });
    expect(checkOf(judge(obs, { now: new Date('2025-02-28T12:00:00Z') }), 'expiry').status).toBe('pass');
    expect(checkOf(judge(obs, { now: new Date('2025-03-01T12:00:00Z') }), 'expiry').status).toBe('fail');
  });

  it('without a readable issue date the validity cannot be established (grave)', () => {
    const j = judge(withChanges(paperCard(), { printed: { date_of_issue: null } }), { now: NOW });
    expect(checkOf(j, 'expiry').status).toBe('fail');
    expect(checkOf(j, 'expiry').explanation.en).toMatch(/issue date could not be read/);
    expect(j.score).toBeLessThanOrEqual(0.5);
  });
});
