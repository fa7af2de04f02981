import { afterEach, describe, expect, it } from 'vitest';
import { drawColourCard } from '../../scripts/eval/corpus/colour-card.ts';
import { phoneCapture } from '../../scripts/eval/corpus/phone-capture.ts';
import { seededRng } from '../../scripts/eval/corpus/rng.ts';
import { transplantField } from '../../scripts/eval/corpus/transplant.ts';
import type { GenuineSource } from '../../scripts/eval/corpus/types.ts';
import { normalizeImage } from '../../src/image/normalize.ts';
import { readDocument } from '../../src/read-document.ts';
import { detectTamper } from '../../src/tamper/index.ts';
import { isMisfitValue, valueKind } from '../../src/tamper/misfit-value.ts';

describe('valueKind: what an unparsed value reads as', () => {
  it.each([
    ['ISSOUFOU', 'name'],
    [': OUEDRAOGO', 'name'],
    ['SENEGALAISE', 'name'],
    ['184301041', 'number'],
    ['NE8750984', 'number'],
    ['26/05/2023', 'date'],
    [':26.05.2023', 'date'],
    // Values broken by capture: a date with letters in it, part of one, a month word, a few letters.
    ['210CT', null],
    ['3LMAY1995', null],
    ['T2019', null],
    ['25AVRIE2021', null],
    ['03 DL', null],
    ['OCTOBRE', null],
    ['29165057', null],
  ])('%s reads as %s', (text, kind) => {
    expect(valueKind(text)).toBe(kind);
  });

  it('judges a value against its field: a name under a date, a date under a name, letters as a number', () => {
    expect(isMisfitValue('date_of_birth', 'DIALLO')).toBe(true);
    expect(isMisfitValue('surname', '26/05/2023')).toBe(true);
    expect(isMisfitValue('document_number', 'ZERBO')).toBe(true);
    // Of the field's own kind, of no kind, or a field not judged (stamp text reads as letters).
    expect(isMisfitValue('surname', 'DIALLO')).toBe(false);
    expect(isMisfitValue('date_of_expiry', '10.05,2033')).toBe(false);
    expect(isMisfitValue('sex', 'OFFICIEL')).toBe(false);
    expect(isMisfitValue('date_of_birth', undefined)).toBe(false);
  });
});

/** The tamper signs of a capture, with the boxes the reading step reads on it (as in service). */
async function signalsOf(bytes: Uint8Array, source: GenuineSource) {
  const front = await normalizeImage(bytes);
  const reading = await readDocument({ front });
  const { signals } = await detectTamper(
    { front, originals: { front: bytes } },
    { layout: source.layout, portrait: null, textBoxes: reading.fieldBoxes, lineBoxes: reading.textBoxes },
  );
  return signals;
}

describe('field_overwritten on a generated transplant (a name region stretched over the date of birth)', () => {
  afterEach(() => {
    delete process.env.IDV_TAMPER_MISFIT_VALUE;
  });

  it('flags the date of birth that reads as a name, not the genuine card; off by default', {
    timeout: 240_000,
  }, async () => {
    const card = await drawColourCard(seededRng(31), 'card');
    const field = (name: string) => card.boxes.fields.find((f) => f.field === name)!.box;
    const forged = transplantField(card.image, field('date_of_birth'), field('surname'), seededRng(33));
    const forgedBytes = await phoneCapture(forged, seededRng(34), { flat: true });
    const misfits = (signals: Awaited<ReturnType<typeof signalsOf>>) =>
      signals.filter((s) => s.type === 'field_overwritten').map((s) => s.field);
    // Off by default (opt-in-cues.ts): no other cue sees this forgery.
    expect(misfits(await signalsOf(forgedBytes, card))).toEqual([]);
    process.env.IDV_TAMPER_MISFIT_VALUE = '1';
    const genuine = await signalsOf(await phoneCapture(card.image, seededRng(32), { flat: true }), card);
    expect(misfits(genuine)).toEqual([]);
    expect(misfits(await signalsOf(forgedBytes, card))).toEqual(['date_of_birth']);
  });
});
