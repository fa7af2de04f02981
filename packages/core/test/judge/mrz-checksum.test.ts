import { describe, expect, it } from 'vitest';
import { judge } from '../../src/index.ts';
import { biometricCard, checkOf, NOW, paperCard, passport, withChanges, withMrzChar } from './fixtures.ts';

const nextDigit = (ch: string) => String((Number(ch) + 1) % 10);

describe('mrz_checksum check (spec table)', () => {
  it('pass: every check digit correct', () => {
    const j = judge(passport(), { now: NOW });
    expect(checkOf(j, 'mrz_checksum')).toMatchObject({ status: 'pass', score: 1 });
    expect(j.verdict).toBe('verified');
  });

  it('pass after a check-digit guided correction says so', () => {
    const obs = passport();
    const j = judge(withChanges(obs, { mrz: { ...obs.mrz!, corrected: true } }), { now: NOW });
    expect(checkOf(j, 'mrz_checksum').status).toBe('pass');
    expect(checkOf(j, 'mrz_checksum').explanation.en).toMatch(/correcting/);
  });

  // Passport TD3 line 2: number check at 9, birth at 19, expiry at 27, composite at 43.
  it.each([
    ['document number', 9, /document number/],
    ['date of birth', 19, /date of birth/],
    ['date of expiry', 27, /date of expiry/],
    ['composite', 43, /composite/],
  ])('fail on a wrong %s digit: score capped at 0.50, rejected', (_label, index, field) => {
    const obs = passport();
    const j = judge(withMrzChar(obs, 1, index, nextDigit(obs.mrz!.lines[1]![index]!)), { now: NOW });
    const c = checkOf(j, 'mrz_checksum');
    expect(c).toMatchObject({ status: 'fail', score: 0 });
    expect(c.explanation.en).toMatch(field);
    expect(c.explanation.fr).toMatch(/Chiffres? de contrôle faux/);
    expect(j.score).toBeLessThanOrEqual(0.5);
    expect(j.verdict).toBe('rejected');
    expect(j.scoring.caps.map((c) => c.rule)).toContain('grave');
  });

  it('fail on a wrong digit of a long TD1 number', () => {
    const obs = biometricCard();
    // Line 1: 123456789<01234567 then the check digit at position 23.
    const j = judge(withMrzChar(obs, 0, 23, nextDigit(obs.mrz!.lines[0]![23]!)), { now: NOW });
    expect(checkOf(j, 'mrz_checksum').status).toBe('fail');
    expect(j.score).toBeLessThanOrEqual(0.5);
  });

  it('fail on a character not allowed, even when the digits hold', () => {
    const obs = passport();
    const lines = [obs.mrz!.lines[0]!.replace('MAIGA', 'maiga'), obs.mrz!.lines[1]!];
    const j = judge(withChanges(obs, { mrz: { ...obs.mrz!, lines } }), { now: NOW });
    expect(checkOf(j, 'mrz_checksum')).toMatchObject({ status: 'fail', score: 0 });
    expect(checkOf(j, 'mrz_checksum').explanation.en).toMatch(/not allowed/);
    expect(j.score).toBeLessThanOrEqual(0.5);
  });

  it('fail on an unknown format', () => {
    const obs = passport();
    const j = judge(withChanges(obs, { mrz: { ...obs.mrz!, lines: ['P<NER', 'XYZ'] } }), { now: NOW });
    expect(checkOf(j, 'mrz_checksum')).toMatchObject({ status: 'fail', score: 0 });
    expect(checkOf(j, 'mrz_checksum').explanation.en).toMatch(/known format/);
    expect(j.score).toBeLessThanOrEqual(0.5);
    expect(j.document.mrz).toEqual({ lines: ['P<NER', 'XYZ'], valid: false });
  });

  it('fail on a line of the wrong length', () => {
    const obs = passport();
    const lines = [obs.mrz!.lines[0]!.slice(0, 43), obs.mrz!.lines[1]!];
    const j = judge(withChanges(obs, { mrz: { ...obs.mrz!, lines } }), { now: NOW });
    expect(checkOf(j, 'mrz_checksum').status).toBe('fail');
    expect(checkOf(j, 'mrz_checksum').explanation.en).toMatch(/44 characters/);
  });

  it('skipped without an MRZ: score null, total capped at 0.85 (review)', () => {
    const j = judge(withChanges(biometricCard(), { mrz: null }), { now: NOW });
    expect(checkOf(j, 'mrz_checksum')).toMatchObject({ status: 'skipped', score: null });
    expect(j.score).toBe(0.85);
    expect(j.verdict).toBe('review');
  });

  it('the paper card explanation names the document', () => {
    const j = judge(paperCard(), { now: NOW });
    expect(checkOf(j, 'mrz_checksum').explanation.fr).toMatch(/carte papier du Niger/);
  });
});
