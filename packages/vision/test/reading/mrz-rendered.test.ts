import { buildMrz, MRZ_LAYOUTS, parseMrz } from '@idv/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { readMrzOnly } from '../../src/mrz/read.ts';
import { warmUp } from '../../src/read-document.ts';
import { renderMrzPage } from '../support/mrz-page.ts';
import { SAHEL_CARD_ZONE as CARD, PASSPORT_ZONE as PASSPORT } from '../support/mrz-zones.ts';

/**
 * The MRZ reader on MRZ zones drawn here in OCR-B (Debian's fonts-ocr-b, as printed MRZs are):
 * exact line lengths, fillers never read as K in long runs, and a wrongly printed check digit
 * left wrong. Real models, no mocks; the images are made by the test.
 */

/** A light card or page with a heading, a portrait's place and the MRZ lines at its bottom. */
const renderMrz = (lines: string[], opts: { width?: number; quarterTurns?: number } = {}) =>
  renderMrzPage(lines, { ...opts, title: 'REPUBLIC OF NIGER', portrait: true });

/**
 * A wrongly printed digit makes every reader run (the cascade's model, both recognisers, the
 * legacy re-read), and a small upside-down scan takes the second look: slow on a loaded machine.
 */
const SLOW = { timeout: 240_000 };

beforeAll(async () => {
  await warmUp();
});

describe('MRZ reading of rendered OCR-B zones', () => {
  it('reads a TD3 zone with long filler runs exactly: lengths exact, no filler read as K', async () => {
    const got = await readMrzOnly(await renderMrz(PASSPORT));
    expect(got).not.toBeNull();
    expect(got!.lines.map((l) => l.length)).toEqual([44, 44]);
    for (let i = 0; i < 2; i++) {
      for (let k = 0; k < 44; k++) if (PASSPORT[i]![k] === '<') expect(got!.lines[i]![k]).toBe('<');
    }
    expect(got!.lines).toEqual(PASSPORT);
  });

  it('reads a TD1 card with a 17-digit number continued in the optional data', async () => {
    const got = await readMrzOnly(await renderMrz(CARD, { width: 1200 }));
    expect(got!.lines.map((l) => l.length)).toEqual([30, 30, 30]);
    expect(got!.lines).toEqual(CARD);
  });

  it('leaves a wrongly printed check digit wrong: the check fails', SLOW, async () => {
    const at = MRZ_LAYOUTS.TD3.dateOfBirthCheck.start;
    const line = [...PASSPORT[1]!];
    line[at] = String((Number(line[at]) + 4) % 10);
    const printed = [PASSPORT[0]!, line.join('')];
    const got = await readMrzOnly(await renderMrz(printed));
    expect(got!.lines).toEqual(printed);
    const parsed = parseMrz(got!.lines)!;
    expect(parsed.checks.find((c) => c.name === 'date_of_birth')!.valid).toBe(false);
    expect(parsed.valid).toBe(false);
  });

  it('reads a card whose check digits are all printed wrong (a specimen) as printed', SLOW, async () => {
    // No check digit of its own holds, so the constrained reading cannot stand alone; the
    // legacy reading the guards accept for the same rows (its fillers padded, O read for 0)
    // must give way to it on equal failing checks (read.ts legacyOrConstrained).
    const L = MRZ_LAYOUTS.TD1;
    const zone = buildMrz({
      format: 'TD1',
      documentCode: 'ID',
      issuingState: 'BFA',
      surname: 'MODELE',
      givenNames: 'ALI',
      documentNumber: 'B00000000',
      nationality: 'BFA',
      dateOfBirth: '010203',
      sex: 'M',
      dateOfExpiry: '310203',
    }).map((l) => [...l]);
    for (const s of [L.documentNumberCheck, L.dateOfBirthCheck, L.dateOfExpiryCheck, L.composite]) {
      zone[s.line]![s.start] = String((Number(zone[s.line]![s.start]) + 5) % 10);
    }
    const printed = zone.map((l) => l.join(''));
    const got = await readMrzOnly(await renderMrz(printed, { width: 900 }));
    expect(got?.lines).toEqual(printed);
    // The composite holds again: the three +5 changes it covers cancel modulo 10.
    expect(
      parseMrz(got!.lines)!
        .checks.filter((c) => !c.valid)
        .map((c) => c.name),
    ).toEqual(['document_number', 'date_of_birth', 'date_of_expiry']);
  });

  it('finds and reads the zone on a small scan (450 px wide) and upside down', SLOW, async () => {
    const small = await readMrzOnly(await renderMrz(CARD, { width: 450 }));
    expect(small?.lines).toEqual(CARD);
    const flipped = await readMrzOnly(await renderMrz(PASSPORT, { quarterTurns: 2 }));
    expect(flipped?.lines).toEqual(PASSPORT);
  });
});
