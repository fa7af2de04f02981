import { beforeAll, describe, expect, it } from 'vitest';
import { normalizeImage } from '../../src/image/normalize.ts';
import type { TextLine } from '../../src/ocr/page.ts';
import { readDocument, warmUp } from '../../src/read-document.ts';
import { detectTamper } from '../../src/tamper/index.ts';
import { readPrintedFieldsWithSources } from '../../src/viz/fields.ts';
import { HOLDER, renderCapture } from '../support/synthetic.ts';

/** Field-level boxes of the reading step (`DocumentReading.fieldBoxes`), with the real OCR. */

beforeAll(async () => {
  await warmUp();
});

/** A read line as the page reader returns it (only what the field reader looks at). */
function line(text: string, y: number, left = 100): TextLine {
  const length = text.length * 12;
  return {
    text,
    confidence: 0.95,
    y,
    x: left + length / 2,
    left,
    length,
    height: 24,
  } as TextLine;
}

describe('readPrintedFieldsWithSources', () => {
  it('gives the span of an inline value after its label', () => {
    const { fields, sources } = readPrintedFieldsWithSources([line('Nom : DIALLO', 100)], []);
    expect(fields.surname).toBe('DIALLO');
    const s = sources.find((x) => x.field === 'surname')!;
    expect(s).toMatchObject({ page: 0, line: 0, end: 1 });
    // "NOM : DIALLO": the value starts at character 6 of 12.
    expect(s.start).toBeCloseTo(6 / 12, 5);
  });
  it('points to the value line below a label, whole, and on the back as page 1', () => {
    const { sources } = readPrintedFieldsWithSources(
      [],
      [line('Date of birth / Date de naissance', 100), line('12.04.1987', 130)],
    );
    expect(sources).toContainEqual({ field: 'date_of_birth', page: 1, line: 1, start: 0, end: 1 });
  });
  it('gives the span of a value that does not parse as unparsed, the field unread', () => {
    // A date whose "O" of "OCT" was read as a "7" beside its "23" (a glyph of another font).
    const { fields, sources, unparsed } = readPrintedFieldsWithSources(
      [line('Date of birth', 100), line('237CT 1989', 130)],
      [],
    );
    expect(fields.date_of_birth).toBeNull();
    expect(sources.filter((s) => s.field === 'date_of_birth')).toEqual([]);
    // With its text as read, for the tamper step's misfit cue (this one reads as no other kind).
    expect(unparsed).toEqual([
      { field: 'date_of_birth', page: 0, line: 1, start: 0, end: 1, text: '237CT 1989' },
    ]);
  });
  it('leaves out of unparsed a field read elsewhere', () => {
    // The first label's value does not parse; the second one's does.
    const { fields, unparsed } = readPrintedFieldsWithSources(
      [line('Date of birth : 1', 100), line('Date de naissance : 12.04.1987', 130)],
      [],
    );
    expect(fields.date_of_birth).toBe('1987-04-12');
    expect(unparsed).toEqual([]);
  });
  it('gives no source for a "number" without digits (a label read as a value)', () => {
    const { sources } = readPrintedFieldsWithSources([line('Numero de document', 100)], []);
    expect(sources.filter((s) => s.field === 'document_number')).toEqual([]);
  });
});

describe('readDocument fieldBoxes', () => {
  const centre = (q: [number, number][]): [number, number] => [
    q.reduce((s, p) => s + p[0], 0) / q.length,
    q.reduce((s, p) => s + p[1], 0) / q.length,
  ];
  it('boxes the MRZ lines and the printed values, not their labels', async () => {
    // Passport layout (test/support/synthetic.ts): surname value drawn at x = 400, baseline
    // y = 205 (28 px type), the label "Nom / Surname" 30 px above it; 60 px margin around.
    const image = await normalizeImage(await renderCapture('passport'));
    const reading = await readDocument({ front: image });
    const fields = reading.fieldBoxes.map((b) => b.field);
    expect(fields).toEqual(expect.arrayContaining(['mrz_1', 'mrz_2', 'surname', 'document_number']));
    const surname = reading.fieldBoxes.find((b) => b.field === 'surname')!;
    const [x, y] = centre(surname.quad);
    const valueWidth = HOLDER.surname.length * 20;
    expect(Math.abs(x - (60 + 400 + valueWidth / 2))).toBeLessThan(valueWidth);
    expect(Math.abs(y - (60 + 205 - 10))).toBeLessThan(14);
    for (const b of reading.fieldBoxes) {
      expect(b.side).toBe('front');
      for (const [px, py] of b.quad) {
        expect(px).toBeGreaterThanOrEqual(0);
        expect(py).toBeGreaterThanOrEqual(0);
        expect(px).toBeLessThanOrEqual(image.width);
        expect(py).toBeLessThanOrEqual(image.height);
      }
    }
  });
  it('follows the tilt of a hand-held capture, and a clean document raises no text-field sign', async () => {
    for (const tiltDegrees of [0, 6]) {
      const image = await normalizeImage(await renderCapture('passport', { tiltDegrees }));
      const reading = await readDocument({ front: image });
      const mrz = reading.fieldBoxes.find((b) => b.field === 'mrz_1')!;
      const [tl, tr] = mrz.quad as [[number, number], [number, number]];
      const angle = (Math.atan2(tr[1] - tl[1], tr[0] - tl[0]) * 180) / Math.PI;
      expect(Math.abs(angle - tiltDegrees)).toBeLessThan(1.5);
      const { signals } = await detectTamper(
        { front: image },
        { layout: 'td3', portrait: null, textBoxes: reading.fieldBoxes },
      );
      const textSigns = signals.filter((s) =>
        ['font_inconsistency', 'field_overwritten', 'partial_document'].includes(s.type),
      );
      expect(textSigns).toEqual([]);
    }
  });
});
