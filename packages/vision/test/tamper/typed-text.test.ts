import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawColourCard } from '../../scripts/eval/corpus/colour-card.ts';
import { phoneCapture } from '../../scripts/eval/corpus/phone-capture.ts';
import { blurRgb } from '../../scripts/eval/corpus/raster-io.ts';
import { seededRng } from '../../scripts/eval/corpus/rng.ts';
import { overwriteField } from '../../scripts/eval/corpus/text.ts';
import type { GenuineSource } from '../../scripts/eval/corpus/types.ts';
import { normalizeImage } from '../../src/image/normalize.ts';
import { detectTamper } from '../../src/tamper/index.ts';
import {
  type MeasuredField,
  TYPED_MAX_STRENGTH,
  typedTextOutliers,
  typedTextRatios,
} from '../../src/tamper/typed-text.ts';

const SLOW = { timeout: 240_000 };

const field = (name: string, contrast: number, sharpness: number, side: 'front' | 'back' = 'front') =>
  ({ field: name, side, measure: { contrast, sharpness } }) satisfies MeasuredField;

describe('typed-text comparison of a side’s values', () => {
  const genuine = [
    field('surname', 200, 0.33),
    field('given_names', 204, 0.32),
    field('date_of_birth', 198, 0.34),
    field('document_number', 202, 0.33),
  ];

  it('flags no value of a page whose values agree', () => {
    expect(typedTextOutliers(genuine)).toEqual([]);
  });

  it('flags a value in lighter ink, and one with sharper edges, below high severity', () => {
    const lighter = [...genuine.slice(0, 3), field('document_number', 140, 0.33)];
    const sharper = [...genuine.slice(0, 3), field('document_number', 201, 0.45)];
    for (const fields of [lighter, sharper]) {
      const flagged = typedTextOutliers(fields);
      expect(flagged.map((f) => f.field)).toEqual(['document_number']);
      expect(flagged[0]!.strength).toBeGreaterThan(0);
      expect(flagged[0]!.strength).toBeLessThanOrEqual(TYPED_MAX_STRENGTH);
    }
  });

  it('leaves MRZ lines out, and compares a value only with enough values of its own side', () => {
    expect(typedTextOutliers([...genuine, field('mrz_1', 120, 0.5)])).toEqual([]);
    const otherSide = [
      field('surname', 200, 0.33),
      field('date_of_birth', 120, 0.5),
      field('x', 200, 0.33, 'back'),
    ];
    expect(typedTextRatios(otherSide)).toEqual([]);
  });
});

/** A colour card's fields as the reading step hands them over (quads on the capture's pixels). */
const boxesOf = (card: GenuineSource) =>
  card.boxes.fields.map((f) => ({ field: f.field, side: 'front', ...f.box }));

async function overwrittenFields(bytes: Uint8Array, card: GenuineSource) {
  const front = await normalizeImage(bytes);
  const { signals } = await detectTamper(
    { front, originals: { front: bytes } },
    { layout: card.layout, portrait: null, textBoxes: boxesOf(card) },
  );
  return signals.filter((s) => s.type === 'field_overwritten').map((s) => s.field);
}

/**
 * The corpus's own overwrite (scripts/eval/corpus/text.ts: the value painted over with the paper
 * colour, a new value typed) on a drawn colour card, captured flat so the truth boxes hold.
 */
describe('field_overwritten on a value typed again on plain paper (IDV_TAMPER_TYPED=1)', () => {
  const before = process.env.IDV_TAMPER_TYPED;
  beforeAll(() => {
    process.env.IDV_TAMPER_TYPED = '1';
  });
  afterAll(() => {
    if (before === undefined) delete process.env.IDV_TAMPER_TYPED;
    else process.env.IDV_TAMPER_TYPED = before;
  });

  it('flags a value typed in lighter ink, not the genuine card', SLOW, async () => {
    const card = await drawColourCard(seededRng(41), 'card');
    const target = card.boxes.fields.find((f) => f.field === 'document_number')!;
    expect(
      await overwrittenFields(await phoneCapture(card.image, seededRng(42), { flat: true }), card),
    ).toEqual([]);
    const forged = await overwriteField(card.image, target.box, target.field, seededRng(43), {
      family: 'DejaVu Sans',
      ink: 110,
    });
    expect(await overwrittenFields(await phoneCapture(forged, seededRng(42), { flat: true }), card)).toEqual([
      'document_number',
    ]);
  });

  it('flags a value typed sharp into a photo of the page, not that photo', SLOW, async () => {
    const card = await drawColourCard(seededRng(51), 'card');
    // The forger works on a photo or scan of the document: the page is blurred, the text typed
    // into it afterwards is not.
    const page = await blurRgb(card.image, 2);
    const target = card.boxes.fields.find((f) => f.field === 'date_of_birth')!;
    expect(await overwrittenFields(await phoneCapture(page, seededRng(52), { flat: true }), card)).toEqual(
      [],
    );
    const forged = await overwriteField(page, target.box, target.field, seededRng(53), {
      family: 'DejaVu Sans',
      ink: 17,
    });
    expect(await overwrittenFields(await phoneCapture(forged, seededRng(52), { flat: true }), card)).toEqual([
      'date_of_birth',
    ]);
  });
});

describe('the typed-text cue by default', () => {
  it('is off without IDV_TAMPER_TYPED=1 (it flags too many genuine captures to be on)', SLOW, async () => {
    const before = process.env.IDV_TAMPER_TYPED;
    delete process.env.IDV_TAMPER_TYPED;
    // The value-weight cue (value-weight.ts) sees this regular-weight value over a bold page: off
    // here, so that only the typed-text cue's switch is tested.
    process.env.IDV_TAMPER_VALUE_WEIGHT = '0';
    try {
      const card = await drawColourCard(seededRng(41), 'card');
      const target = card.boxes.fields.find((f) => f.field === 'document_number')!;
      const forged = await overwriteField(card.image, target.box, target.field, seededRng(43), {
        family: 'DejaVu Sans',
        ink: 110,
      });
      expect(
        await overwrittenFields(await phoneCapture(forged, seededRng(42), { flat: true }), card),
      ).toEqual([]);
    } finally {
      if (before !== undefined) process.env.IDV_TAMPER_TYPED = before;
      delete process.env.IDV_TAMPER_VALUE_WEIGHT;
    }
  });
});
