import { emptyPrintedFields } from '@idv/core';
import { describe, expect, it } from 'vitest';
import { isSahelCard, sahelCardNumber, withCardNumberShape } from '../../src/document/card-number.ts';
import type { Classification } from '../../src/document/classify.ts';
import { readPrintedFieldsWithSources } from '../../src/viz/fields.ts';
import { line } from './ocr-line.ts';

/**
 * The Sahel card's printed number checked against the card's 17-digit shape once the document
 * type is known: a number read in part left unread, the rest of its "N°/No" mark dropped, other
 * documents' numbers as read. On OCR lines as the recogniser returns them (made-up numbers).
 */

const SAHEL: Classification = { type: 'cni', layout: 'td1', country: 'MLI' };

describe("the Sahel card's number shape", () => {
  it('keeps a 17-digit number, and numbers of another kind, as read', () => {
    expect(sahelCardNumber('30517264908813572', 'No 30517264908813572')).toBe('30517264908813572');
    // Up to the MRZ's 9 positions, or with letters: a shape this rule does not know.
    expect(sahelCardNumber('305172649', 'No 305172649')).toBe('305172649');
    expect(sahelCardNumber('AB3051726', 'No AB3051726')).toBe('AB3051726');
  });

  it('leaves a long number read in part unread', () => {
    expect(sahelCardNumber('7264908813572', '7264908813572')).toBeNull();
    expect(sahelCardNumber('3051726490881357', 'No 3051726490881357')).toBeNull();
  });

  it("drops the digits the mark's o was read as, only when the mark's N is glued before them", () => {
    expect(sahelCardNumber('630517264908813572', 'N°1N630517264908813572')).toBe('30517264908813572');
    expect(sahelCardNumber('0630517264908813572', 'No 1N0630517264908813572')).toBe('30517264908813572');
    // No mark before it: which digit is too many is not told by the text.
    expect(sahelCardNumber('630517264908813572', 'Numero : 630517264908813572')).toBeNull();
    // More digits than the mark explains.
    expect(sahelCardNumber('41630517264908813572', 'N41630517264908813572')).toBeNull();
  });

  it('knows the card by the type, layout and country the reading decided', () => {
    expect(isSahelCard(SAHEL)).toBe(true);
    expect(isSahelCard({ ...SAHEL, country: 'BFA' })).toBe(true);
    expect(isSahelCard({ ...SAHEL, country: 'SEN' })).toBe(false);
    expect(isSahelCard({ ...SAHEL, layout: 'td2' })).toBe(false);
    expect(isSahelCard({ type: 'passport', layout: 'td3', country: 'NER' })).toBe(false);
    expect(isSahelCard({ type: 'cni', layout: 'niger_paper_card', country: 'NER' })).toBe(false);
  });
});

describe('the printed fields of a Sahel card', () => {
  it('mends the number read with its mark and keeps its source', () => {
    const front = [line('N°1N630517264908813572', 100), line('NOM / SURNAME', 160), line('DIALLO', 190)];
    const read = readPrintedFieldsWithSources(front, []);
    // The printed zone alone, not knowing the card, keeps the mark's digit.
    expect(read.fields.document_number).toBe('630517264908813572');
    const checked = withCardNumberShape(SAHEL, read, [front, []]);
    expect(checked.fields.document_number).toBe('30517264908813572');
    expect(checked.fields.surname).toBe(read.fields.surname);
    expect(checked.sources.some((s) => s.field === 'document_number')).toBe(true);
  });

  it('leaves a number read in part unread, its source with it, on a Sahel card only', () => {
    const front = [line('7264908813572', 100)];
    const read = readPrintedFieldsWithSources(front, []);
    expect(read.fields.document_number).toBe('7264908813572');
    const checked = withCardNumberShape(SAHEL, read, [front, []]);
    expect(checked.fields.document_number).toBeNull();
    expect(checked.sources.some((s) => s.field === 'document_number')).toBe(false);
    // Another document: the number as the printed zone read it.
    const other = withCardNumberShape({ type: 'cni', layout: 'td2', country: 'MLI' }, read, [front, []]);
    expect(other.fields.document_number).toBe('7264908813572');
  });

  it('returns the fields unchanged when there is no number', () => {
    const read = { fields: emptyPrintedFields(), sources: [], unparsed: [] };
    expect(withCardNumberShape(SAHEL, read, [[], []])).toBe(read);
  });
});
