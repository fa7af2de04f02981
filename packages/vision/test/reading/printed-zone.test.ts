import { beforeAll, describe, expect, it } from 'vitest';
import { generateDocument } from '../../scripts/synth/index.ts';
import { normalizeImage } from '../../src/image/normalize.ts';
import { readDocument, warmUp } from '../../src/read-document.ts';

/**
 * The printed zone on documents drawn by the synthetic benchmark's generator (a few clean
 * renders, made here): Niger's paper card (no MRZ, tall page, number on the right, issue date
 * only) and the Sahel card's front (17-digit number, date of birth), on two layouts each, so
 * that reading does not depend on one template.
 */

beforeAll(async () => {
  await warmUp();
});

/** The reader returns names without accents (folded), as OCR does not keep them reliably. */
const plain = (s: string | undefined) => s?.normalize('NFD').replace(/\p{M}/gu, '');

async function read(seed: number, layout: string) {
  const doc = await generateDocument(seed, { layout, level: 'clean' });
  const reading = await readDocument({ front: await normalizeImage(new Uint8Array(doc.image)) });
  return { reading, truth: doc.truth };
}

describe("Niger's paper card", () => {
  for (const [seed, layout] of [
    [21, 'niger-paper-a'],
    [22, 'niger-paper-b'],
  ] as const) {
    it(`is recognised and its fields read (${layout})`, async () => {
      const { reading, truth } = await read(seed, layout);
      expect(reading.document.type).toBe('cni');
      expect(reading.document.layout).toBe('niger_paper_card');
      expect(reading.document.country).toBe('NER');
      expect(reading.mrz).toBeNull();
      expect(reading.printed.surname).toBe(plain(truth.printed.surname));
      expect(reading.printed.given_names).toBe(plain(truth.printed.given_names));
      expect(reading.printed.date_of_birth).toBe(truth.printed.date_of_birth);
      expect(reading.printed.document_number).toBe(truth.printed.document_number);
      expect(reading.printed.date_of_issue).toBe(truth.printed.date_of_issue);
    });
  }
});

describe('Sahel card front', () => {
  for (const [seed, layout] of [
    [31, 'sahel-front-a'],
    [32, 'sahel-front-b'],
  ] as const) {
    it(`reads the 17-digit number and the date of birth (${layout})`, async () => {
      const { reading, truth } = await read(seed, layout);
      expect(truth.printed.document_number).toMatch(/^\d{17}$/);
      expect(reading.printed.document_number).toBe(truth.printed.document_number);
      expect(reading.printed.date_of_birth).toBe(truth.printed.date_of_birth);
      expect(reading.printed.surname).toBe(plain(truth.printed.surname));
      expect(reading.document.type).toBe('cni');
    });
  }
});
