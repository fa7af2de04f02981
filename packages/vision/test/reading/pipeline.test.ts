import { buildMrz } from '@idv/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ImageInputError, normalizeImage } from '../../src/image/normalize.ts';
import { readMrzOnly } from '../../src/mrz/read.ts';
import { detectText } from '../../src/ocr/detect.ts';
import { readPage } from '../../src/ocr/page.ts';
import { precheck } from '../../src/precheck/precheck.ts';
import { assessSharpness } from '../../src/quality/sharpness.ts';
import { readDocument, warmUp } from '../../src/read-document.ts';
import { HOLDER, holderMrz, renderCapture } from '../support/synthetic.ts';

/** End-to-end stages on synthetic captures, with the real OCR models (no mocks). */

beforeAll(async () => {
  await warmUp();
});

const load = async (...args: Parameters<typeof renderCapture>) =>
  normalizeImage(await renderCapture(...args));

describe('image input', () => {
  it('refuses bytes that are not an image', async () => {
    await expect(normalizeImage(new TextEncoder().encode('not an image'))).rejects.toMatchObject({
      code: 'invalid_image',
    });
  });
  it('refuses images over 12 MB', async () => {
    const err = await normalizeImage(new Uint8Array(12 * 1024 * 1024 + 1)).catch((e) => e);
    expect(err).toBeInstanceOf(ImageInputError);
    expect(err.code).toBe('image_too_large');
  });
});

describe('blur gate', () => {
  it('passes a sharp capture and a lightly soft JPEG, refuses a heavily blurred one', async () => {
    const sharp = assessSharpness(await load('passport'));
    const soft = assessSharpness(await load('passport', { blur: 1, jpegQuality: 60, noise: 6 }));
    const blurred = assessSharpness(await load('passport', { blur: 6 }));
    expect(sharp.tooBlurry).toBe(false);
    expect(soft.tooBlurry).toBe(false);
    expect(blurred.tooBlurry).toBe(true);
    expect(blurred.score).toBeLessThan(soft.score);
  });
});

describe('text detection', () => {
  it('finds the MRZ lines as long thin boxes', async () => {
    const img = await load('passport');
    const boxes = await detectText(img);
    const long = boxes.filter((b) => b.rect.long > 0.6 * img.width && b.rect.long > 15 * b.rect.short);
    expect(long.length).toBeGreaterThanOrEqual(2);
  });
});

describe('page orientation', () => {
  it.each([1, 2, 3] as const)('reads a page photographed at %i quarter turns upright', async (q) => {
    const page = await readPage(await load('cni_back', { quarterTurns: q }));
    const mrzLine = page.lines.find((l) => l.mrz.text.includes('NER<<<'));
    expect(mrzLine).toBeDefined();
  });
});

describe('MRZ reading', () => {
  it('reads a TD3 passport MRZ with valid check digits (line 2 exactly)', async () => {
    const r = await readDocument({ front: await load('passport', { jpegQuality: 80 }) });
    expect(r.mrz).not.toBeNull();
    expect(r.mrz!.lines[1]).toBe(holderMrz('passport')[1]);
    expect(r.mrzDetails!.parsed.valid).toBe(true);
    expect(r.document.type).toBe('passport');
    expect(r.document.layout).toBe('td3');
    expect(r.document.country).toBe('NER');
  });

  it('reads a TD1 card back exactly, tilted, noised and JPEG-compressed', async () => {
    const r = await readDocument({
      front: await load('cni_front'),
      back: await load('cni_back', { tiltDegrees: 3, noise: 8, jpegQuality: 75 }),
    });
    expect(r.mrz?.lines).toEqual(holderMrz('cni_back'));
    expect(r.mrz?.side).toBe('back');
    expect(r.document.type).toBe('cni');
    expect(r.document.layout).toBe('td1');
  });

  it('reads an upside-down capture', async () => {
    const lines = await readMrzOnly(await load('cni_back', { quarterTurns: 2 }));
    expect(lines?.lines).toEqual(holderMrz('cni_back'));
  });

  it('never invents an MRZ on a document without one', async () => {
    for (const layout of ['cni_front', 'niger_paper', 'plain'] as const) {
      const r = await readDocument({ front: await load(layout) });
      expect(r.mrz).toBeNull();
    }
  });

  it('reads a long TD1 number the way the MRZ builder writes it', async () => {
    const long = { ...HOLDER, number: 'NER12345678901234' };
    const expected = buildMrz({
      format: 'TD1',
      documentCode: 'ID',
      issuingState: 'NER',
      nationality: 'NER',
      documentNumber: long.number,
      surname: long.surname,
      givenNames: long.givenNames,
      dateOfBirth: long.birth,
      sex: long.sex,
      dateOfExpiry: long.expiry,
    });
    const r = await readMrzOnly(await load('cni_back', {}, long));
    expect(r?.lines).toEqual(expected);
  });
});

describe('printed fields and document type', () => {
  it('reads the labelled fields of a bilingual passport page', async () => {
    const r = await readDocument({ front: await load('passport') });
    expect(r.printed.surname).toBe('DIALLO');
    expect(r.printed.given_names).toBe('AMINATA');
    expect(r.printed.date_of_birth).toBe('1987-04-12');
    expect(r.printed.sex).toBe('F');
    expect(r.printed.date_of_expiry).toBe('2031-09-25');
    expect(r.printed.place_of_birth).toBe('NIAMEY');
    expect(r.document.legibility).toBeGreaterThan(0.8);
    expect(r.timings.ocr_ms).toBeGreaterThanOrEqual(0);
    expect(r.textBoxes.length).toBeGreaterThan(10);
  });

  it('reads issue and expiry dates and the authority on a card back', async () => {
    const r = await readDocument({ front: await load('cni_front'), back: await load('cni_back') });
    expect(r.printed.surname).toBe('DIALLO');
    expect(r.printed.date_of_issue).toBe('2021-09-25');
    expect(r.printed.date_of_expiry).toBe('2031-09-25');
    expect(r.printed.issuing_authority).toContain('SURETE');
  });

  it("recognises Niger's paper card by its layout and wording", async () => {
    const r = await readDocument({ front: await load('niger_paper') });
    expect(r.document.type).toBe('cni');
    expect(r.document.layout).toBe('niger_paper_card');
    expect(r.document.country).toBe('NER');
    expect(r.printed.date_of_issue).toBe('2021-04-25');
  });

  it('calls a page without a document unknown', async () => {
    const r = await readDocument({ front: await load('plain') });
    expect(r.document.type).toBe('unknown');
  });
});

describe('pre-check', () => {
  it('accepts a good passport capture', async () => {
    expect((await precheck(await load('passport'), { documentType: 'passport' })).issue).toBeNull();
  });
  it('says not_a_document for an empty frame', async () => {
    expect((await precheck(await load('plain'), {})).issue).toBe('not_a_document');
  });
  it('says wrong_side when the card back is shown for the front', async () => {
    expect((await precheck(await load('cni_back'), { documentType: 'cni', side: 'front' })).issue).toBe(
      'wrong_side',
    );
    expect((await precheck(await load('cni_front'), { documentType: 'cni', side: 'back' })).issue).toBe(
      'wrong_side',
    );
  });
  it('says cut_off when the document runs out of the frame', async () => {
    expect(
      (await precheck(await load('passport', { cropRightShare: 0.2 }), { documentType: 'passport' })).issue,
    ).toBe('cut_off');
  });
  it('says illegible for a blurred capture', async () => {
    expect((await precheck(await load('passport', { blur: 4 }), {})).issue).toBe('illegible');
  });
});
