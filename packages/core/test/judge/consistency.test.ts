import { describe, expect, it } from 'vitest';
import { judge, normaliseSex } from '../../src/index.ts';
import { biometricCard, checkOf, NOW, passport, passportMrzWith, withChanges } from './fixtures.ts';

describe('viz_mrz_consistency check (spec table)', () => {
  it('pass: all fields agree, accents and transliteration tolerated (MAÏGA / MAIGA)', () => {
    const c = checkOf(judge(passport(), { now: NOW }), 'viz_mrz_consistency');
    expect(c).toMatchObject({ status: 'pass', score: 1 });
  });

  it('pass: a 17-digit card number printed with spaces equals the reassembled MRZ number', () => {
    expect(checkOf(judge(biometricCard(), { now: NOW }), 'viz_mrz_consistency').status).toBe('pass');
  });

  it('pass: MRZ given names cut to fit the line still agree', () => {
    const obs = passport();
    const lines = passportMrzWith({
      format: 'TD1',
      surname: 'Abdoulkarim Ould Mohamed',
      givenNames: 'Fatimata Zahra Bintou',
    });
    const card = withChanges(obs, {
      document: { type: 'cni', layout: 'td1' },
      mrz: { ...obs.mrz!, lines },
      printed: { surname: 'Abdoulkarim Ould Mohamed', given_names: 'Fatimata Zahra Bintou' },
    });
    const j = judge(card, { now: NOW });
    expect(checkOf(j, 'viz_mrz_consistency').status).toBe('pass');
    // The public fields carry the full printed names, not the cut MRZ form.
    expect(j.fields.given_names).toBe('Fatimata Zahra Bintou');
  });

  it('warn: those readable agree, some unreadable; score = share that agree', () => {
    const obs = withChanges(passport(), { printed: { sex: null, date_of_expiry: null } });
    const c = checkOf(judge(obs, { now: NOW }), 'viz_mrz_consistency');
    expect(c.status).toBe('warn');
    expect(c.score).toBe(0.6667);
    expect(c.explanation.en).toMatch(/sex and expiry date/);
  });

  it('warn: nothing readable in the printed zone', () => {
    const printed = {
      surname: null,
      given_names: null,
      date_of_birth: null,
      sex: null,
      document_number: null,
      date_of_expiry: null,
    };
    const c = checkOf(judge(withChanges(passport(), { printed }), { now: NOW }), 'viz_mrz_consistency');
    expect(c).toMatchObject({ status: 'warn', score: 0 });
  });

  it.each([
    ['surname', { surname: 'MAÏGO' }, true],
    ['given_names', { given_names: 'Aïssata Mariama' }, true],
    ['date_of_birth', { date_of_birth: '1990-03-15' }, true],
    ['sex', { sex: 'M' }, false],
    ['document_number', { document_number: '18PC01235' }, false],
    ['date_of_expiry', { date_of_expiry: '2030-01-02' }, false],
  ] as const)('fail when %s differs (grave: %s)', (field, printed, grave) => {
    const j = judge(withChanges(passport(), { printed }), { now: NOW });
    const c = checkOf(j, 'viz_mrz_consistency');
    expect(c).toMatchObject({ status: 'fail', score: 0 });
    const label = {
      surname: 'surname',
      given_names: 'given names',
      date_of_birth: 'date of birth',
      sex: 'sex',
      document_number: 'document number',
      date_of_expiry: 'expiry date',
    }[field];
    expect(c.explanation.en).toContain(label);
    expect(j.verdict).not.toBe('verified');
    if (grave) {
      expect(j.score).toBeLessThanOrEqual(0.5);
      expect(j.verdict).toBe('rejected');
    } else {
      // Not grave: a fail caps below 0.90; here 35 + 20 + 15 + 10 of 100 remain → 0.80, review.
      expect(j.score).toBe(0.8);
      expect(j.verdict).toBe('review');
    }
  });

  it('dates are compared as YYMMDD, so the century guess plays no part', () => {
    // A person born in 1925 read with a birth of 2025 would be wrong; the printed 1925 agrees.
    const obs = passport();
    const lines = passportMrzWith({ dateOfBirth: '250101' });
    const old = withChanges(obs, { mrz: { ...obs.mrz!, lines }, printed: { date_of_birth: '1925-01-01' } });
    expect(checkOf(judge(old, { now: NOW }), 'viz_mrz_consistency').status).toBe('pass');
  });

  it('skipped without an MRZ', () => {
    const c = checkOf(judge(withChanges(passport(), { mrz: null }), { now: NOW }), 'viz_mrz_consistency');
    expect(c).toMatchObject({ status: 'skipped', score: null });
  });

  it.each([
    ['M', 'M'],
    ['F', 'F'],
    ['Masculin', 'M'],
    ['féminin', 'F'],
    ['H', 'M'],
    ['X', 'X'],
    ['?', null],
    [null, null],
  ])('printed sex %j reads as %j', (printed, sex) => {
    expect(normaliseSex(printed)).toBe(sex);
  });
});
