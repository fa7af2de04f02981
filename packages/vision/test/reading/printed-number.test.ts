import { beforeAll, describe, expect, it } from 'vitest';
import { corpus, generateDocument } from '../../scripts/synth/index.ts';
import { normalizeImage } from '../../src/image/normalize.ts';
import { readDocument, warmUp } from '../../src/read-document.ts';
import { readPrintedFields } from '../../src/viz/fields.ts';
import { numberByShape } from '../../src/viz/number-shape.ts';
import { line } from './ocr-line.ts';

/**
 * The printed document number (and names) read wrong rather than not at all: a letter prefix
 * read with a digit, a letter drawn like a digit among digits, a long number split into
 * two boxes, the rest of a name's label or another label's line taken for the name. First on OCR
 * lines as the recogniser returns them, then on documents drawn by the synthetic benchmark's
 * generator where the recogniser reads them so.
 */

describe('the number checked against its shape', () => {
  it('reads a digit alone before the opening letters as the letter it is drawn like', () => {
    expect(numberByShape('0D1767183')).toBe('OD1767183');
    expect(numberByShape('1Z4637522')).toBe('IZ4637522');
    // Letters already, digits only, or a digit not drawn like a letter: as read.
    expect(numberByShape('OZ4637522')).toBe('OZ4637522');
    expect(numberByShape('006850520')).toBe('006850520');
    expect(numberByShape('7K4637522')).toBe('7K4637522');
    expect(numberByShape('N05549973')).toBe('N05549973');
  });

  it('returns no number for a letter drawn like a digit alone among digits', () => {
    expect(numberByShape('12345O789')).toBeNull();
    expect(numberByShape('40718S263')).toBeNull();
    // A letter like no digit is the number's own, beside a 0 or a 1 too: real series print them.
    expect(numberByShape('M4702R815')).toBe('M4702R815');
    expect(numberByShape('T10K40367')).toBe('T10K40367');
    // Pairs of letters among digits are a number's shape.
    expect(numberByShape('08130IY50')).toBe('08130IY50');
    expect(numberByShape('60179YZ15')).toBe('60179YZ15');
  });

  it('applies to the number read after its label', () => {
    expect(
      readPrintedFields([line('N° du passeport / Passport No 0D1767183', 100)], []).document_number,
    ).toBe('OD1767183');
    expect(readPrintedFields([line('Carte N° : 91595108O', 100)], []).document_number).toBe('91595108O');
    expect(readPrintedFields([line('Carte N° : 9159S1080', 100)], []).document_number).toBeNull();
  });
});

describe('a number split into two boxes on its row', () => {
  it('joins the digits-only box that starts where the number ends', () => {
    const first = line('N/No1239690625122', 100, 100, 17 * 12);
    const apart = line('8104', 100, 100 + 17 * 12 + 8, 4 * 12);
    expect(readPrintedFields([first, apart], []).document_number).toBe('12396906251228104');
  });

  it('drops the digit read twice where the boxes overlap', () => {
    const first = line('N/No1239690625122', 100, 100, 17 * 12);
    const over = line('28104', 100, 100 + 16 * 12, 5 * 12);
    expect(readPrintedFields([first, over], []).document_number).toBe('12396906251228104');
  });

  it('returns no number when the overlap repeats nothing', () => {
    const first = line('N/No1239690625122', 100, 100, 17 * 12);
    const over = line('78104', 100, 100 + 16 * 12, 5 * 12);
    expect(readPrintedFields([first, over], []).document_number).toBeNull();
  });

  it('leaves a number of usual length whole, whatever digits follow it on its row', () => {
    const first = line('Passport No 47021815', 100, 100, 20 * 12);
    const after = line('0312', 100, 100 + 20 * 12 + 8, 4 * 12);
    expect(readPrintedFields([first, after], []).document_number).toBe('47021815');
  });

  it('leaves a date or a box far off the row alone', () => {
    const first = line('N/No12396906251228104', 100, 100, 21 * 12);
    expect(readPrintedFields([first, line('12.05.2020', 100, 100 + 21 * 12 + 8)], []).document_number).toBe(
      '12396906251228104',
    );
    expect(readPrintedFields([first, line('28104', 100, 100 + 21 * 12 + 200)], []).document_number).toBe(
      '12396906251228104',
    );
  });
});

describe('names not taken from a label', () => {
  it("drops the rest of the name's label before a colon", () => {
    expect(readPrintedFields([line('NOM DEFAMLE:DEMBELE', 100)], []).surname).toBe('DEMBELE');
    // A name and a colon further on: the text is kept as read.
    expect(readPrintedFields([line('NOM DIALLO SOW', 100)], []).surname).toBe('DIALLO SOW');
  });

  it("takes no line opening with another field's label for the name", () => {
    const f = readPrintedFields(
      [
        line('Nom de famille uramessouFou', 100),
        line('prenomsGivenmamesADAMAMAHAMANE', 130),
        line('Neele/Datof birth:22/01/1951', 160),
      ],
      [],
    );
    // The last resort, the label's misread rest run into the name ("uramessouFou"), is names
    // run together: unread.
    expect(f.surname).toBeNull();
    expect(f.date_of_birth).toBe('1951-01-22');
    // A name in capitals read with its case mixed is still the last resort.
    expect(readPrintedFields([line('Prenom(s) Given namesOuMou', 100)], []).given_names).toBe('OUMOU');
  });
});

describe('names read run together', () => {
  it('are left unread, whatever label they were found by', () => {
    const f = readPrintedFields(
      [
        line('Nom/Surname DIALLOISSOUFOU', 100),
        line('Prenoms/Given names JEAN-BAPTISTE DRISSAMAHAMANE', 130),
      ],
      [],
    );
    expect(f.surname).toBeNull();
    expect(f.given_names).toBeNull();
    // Hyphenated and long single names short of 12 letters are names.
    const g = readPrintedFields(
      [line('Nom/Surname ALMOUSTAPHA', 100), line('Prenoms/Given names JEAN-BAPTISTE', 130)],
      [],
    );
    expect(g.surname).toBe('ALMOUSTAPHA');
    expect(g.given_names).toBe('JEAN-BAPTISTE');
  });
});

describe('on documents drawn by the generator (tuning layouts)', () => {
  beforeAll(async () => {
    await warmUp();
  });

  /** The benchmark's document `index` of seed `seed`, read as the service reads it. */
  async function read(seed: number, index: number) {
    const item = [...corpus(index + 1, seed)][index]!;
    const doc = await generateDocument(item.seed, item.options);
    const reading = await readDocument({
      front: await normalizeImage(new Uint8Array(doc.image)),
      back: doc.back ? await normalizeImage(new Uint8Array(doc.back.image)) : undefined,
    });
    return { reading, truth: { ...doc.truth.printed, ...(doc.back?.truth.printed ?? {}) } };
  }

  it('reads a passport number whose first letter the recogniser reads as 0', async () => {
    const { reading, truth } = await read(7, 52);
    expect(truth.document_number).toMatch(/^O[A-Z][0-9]{7}$/);
    expect(reading.printed.document_number).toBe(truth.document_number);
  });

  it('reads a surname after the misread rest of its label', async () => {
    const { reading, truth } = await read(13, 23);
    expect(reading.printed.surname).toBe(truth.surname?.normalize('NFD').replace(/\p{M}/gu, ''));
  });
});
