import { beforeAll, describe, expect, it } from 'vitest';
import { mrzCandidates, mrzRows } from '../../src/mrz/locate.ts';
import { mrzFromPage } from '../../src/mrz/read.ts';
import { blockInkChars, formatFromInk, inkPeriod, rowInk } from '../../src/mrz/row-extent.ts';
import { readDocumentPage } from '../../src/ocr/focus.ts';
import { warmUp } from '../../src/read-document.ts';
import { renderMrzPage } from '../support/mrz-page.ts';
import { PASSPORT_ZONE, SAHEL_CARD_ZONE, TD2_CARD_ZONE } from '../support/mrz-zones.ts';

/**
 * The MRZ rows' length measured on their ink (row-extent.ts): rendered OCR-B zones of each
 * format read by the real page OCR, then each row's pitch and character count from its ink.
 */

beforeAll(async () => {
  await warmUp();
});

const ZONES = [
  { format: 'TD3', zone: PASSPORT_ZONE, width: 1700 },
  { format: 'TD2', zone: TD2_CARD_ZONE, width: 1400 },
  { format: 'TD1', zone: SAHEL_CARD_ZONE, width: 1200 },
  // A small scan: rows a few tens of pixels long per word.
  { format: 'TD1', zone: SAHEL_CARD_ZONE, width: 600 },
] as const;

describe('MRZ row extent from the ink', () => {
  it.each(ZONES)('counts the characters of every $format row ($width px page)', async ({ zone, width }) => {
    const img = await renderMrzPage(zone, { width, title: 'REPUBLIC OF NIGER', portrait: true });
    const view = await readDocumentPage(img);
    const rows = mrzRows(view.page.lines);
    expect(rows.length).toBe(zone.length);
    for (const row of rows) {
      const ink = rowInk(view.image, view.page, row);
      expect(ink).not.toBeNull();
      expect(Math.abs(ink!.chars - zone[0]!.length)).toBeLessThanOrEqual(1);
    }
  });

  it('tells a TD3 from a TD2 when the boxes stop 8 characters short (fillers dropped)', async () => {
    const img = await renderMrzPage(PASSPORT_ZONE, { title: 'PASSPORT', portrait: true });
    const view = await readDocumentPage(img);
    const rows = mrzRows(view.page.lines);
    expect(rows.length).toBe(2);
    // As a reader that lost the end of each row sees them: boxes and readings 36 characters long.
    const cut = rows.map((r) => {
      const right = r.left + ((r.right - r.left) * 36) / 44;
      return { ...r, right, mrz: { text: r.mrz.text.slice(0, 36), probs: r.mrz.probs.slice(0, 36) } };
    });
    const ink = blockInkChars(view.image, view.page, cut);
    expect(ink).not.toBeNull();
    expect(formatFromInk(2, ink!.chars)).toBe('TD3');
    for (let i = 0; i < 2; i++) {
      expect(ink!.rows[i]!.right).toBeGreaterThan(rows[i]!.right - 2 * ink!.rows[i]!.pitch!);
      expect(ink!.rows[i]!.pitch).toBeGreaterThan(0);
    }
    // The candidates of those rows: a TD3 at the ink's extent, no TD2.
    const lines = view.page.lines.map((l, i) =>
      rows.some((r) => r.parts.includes(i))
        ? {
            ...l,
            mrz: { ...l.mrz, text: l.mrz.text.slice(0, 36), chars: l.mrz.chars.slice(0, 36) },
            length: (l.length * 36) / 44,
          }
        : l,
    );
    const candidates = mrzCandidates(lines, (rs) => blockInkChars(view.image, view.page, rs));
    expect(candidates.filter((c) => c.format === 'TD2')).toEqual([]);
    const td3 = candidates.find((c) => c.format === 'TD3');
    expect(td3?.extended).toBe(true);
  });
  it('stops at the dark surround beyond the page edge (an MRZ printed near the edge)', async () => {
    const img = await renderMrzPage(PASSPORT_ZONE, {
      title: 'PASSPORT',
      portrait: true,
      left: 8,
      surround: 150,
    });
    const view = await readDocumentPage(img);
    const rows = mrzRows(view.page.lines);
    expect(rows.length).toBe(2);
    for (const row of rows) {
      const ink = rowInk(view.image, view.page, row);
      expect(ink).not.toBeNull();
      expect(Math.abs(ink!.chars - 44)).toBeLessThanOrEqual(1);
    }
  });

  it('takes a TD1 whose middle row was read without its filler run (19 characters) by its ink', async () => {
    const img = await renderMrzPage(SAHEL_CARD_ZONE, {
      width: 1200,
      title: 'REPUBLIC OF MALI',
      portrait: true,
    });
    const view = await readDocumentPage(img);
    const rows = mrzRows(view.page.lines);
    expect(rows.length).toBe(3);
    // As a reader that drops fillers sees the middle row: its box whole, its reading 19 long.
    const middle = rows[1]!.parts[0]!;
    const lines = view.page.lines.map((l, i) => {
      if (i !== middle) return l;
      const keep = l.mrz.chars.map((c) => c.char !== '<');
      const chars = l.mrz.chars.filter((_, k) => keep[k]);
      return { ...l, mrz: { ...l.mrz, text: chars.map((c) => c.char).join(''), chars } };
    });
    expect(lines[middle]!.mrz.text.length).toBeLessThan(20);
    // On its reading alone the short row is no MRZ row; with the ink the block is a TD1.
    expect(mrzRows(lines).length).toBe(2);
    const candidates = mrzCandidates(lines, (rs) => blockInkChars(view.image, view.page, rs));
    const td1 = candidates.find((c) => c.format === 'TD1');
    expect(td1?.extended).toBe(true);
    expect(td1!.rows.map((r) => r.y)).toEqual(rows.map((r) => r.y));
    const read = await mrzFromPage(view.image, { ...view.page, lines });
    expect(read?.lines).toEqual(SAHEL_CARD_ZONE);
  });

  it('takes a block whose readings lost every filler (chevrons read as dashes) by its ink alone', async () => {
    const img = await renderMrzPage(TD2_CARD_ZONE, {
      width: 1400,
      title: 'REPUBLIC OF NIGER',
      portrait: true,
    });
    const view = await readDocumentPage(img);
    const rows = mrzRows(view.page.lines);
    expect(rows.length).toBe(2);
    const parts = new Set(rows.flatMap((r) => r.parts));
    const lines = view.page.lines.map((l, i) => {
      if (!parts.has(i)) return l;
      const chars = l.mrz.chars.filter((c) => c.char !== '<');
      return { ...l, mrz: { ...l.mrz, text: chars.map((c) => c.char).join(''), chars } };
    });
    // Without fillers the reading alone makes no candidate; the ink measures both rows a TD2.
    expect(mrzCandidates(lines)).toEqual([]);
    const candidates = mrzCandidates(lines, (rs) => blockInkChars(view.image, view.page, rs));
    expect(candidates.map((c) => [c.format, c.extended])).toEqual([['TD2', true]]);
    const read = await mrzFromPage(view.image, { ...view.page, lines });
    expect(read?.lines).toEqual(TD2_CARD_ZONE);
  });

  it('does not measure printed words in the MRZ font as MRZ rows (word spaces)', async () => {
    // An invented title block: capitals and digits of about an MRZ row's length, with spaces.
    const title = ['REPUBLIQUE DU NIGER FRATERNITE TRAVAIL', 'CARTE CONSULAIRE 2031 4477 NIAMEY'];
    const img = await renderMrzPage(title, { at: 'top' });
    const view = await readDocumentPage(img);
    const rows = mrzRows(view.page.lines);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(rowInk(view.image, view.page, row)).toBeNull();
    const candidates = mrzCandidates(view.page.lines, (rs) => blockInkChars(view.image, view.page, rs));
    expect(candidates.filter((c) => c.extended)).toEqual([]);
  });
});

describe('format from the ink count', () => {
  it.each([
    [2, 44, 'TD3'],
    [2, 42, 'TD3'],
    [2, 36, 'TD2'],
    [2, 38, 'TD2'],
    [3, 30, 'TD1'],
    [3, 28, 'TD1'],
    [2, 40, null],
    [2, 30, null],
    // Two rows of TD1 length seen (a card's third row missed) are no TD2.
    [2, 32, null],
    [2, 33, null],
    [2, 34, 'TD2'],
    [3, 36, null],
    [3, 41, null],
  ] as const)('%i rows of %i characters: %s', (count, chars, format) => {
    expect(formatFromInk(count, chars)).toBe(format);
  });
});

describe('ink period', () => {
  it('finds the period of evenly spaced glyphs, not twice it', () => {
    // Glyphs 6 columns wide every 10 columns, with one narrow glyph (a '1') among them.
    const profile = Float32Array.from({ length: 400 }, (_, x) => {
      const glyph = Math.floor(x / 10);
      const w = glyph % 7 === 3 ? 2 : 6;
      return x % 10 < w ? 0.5 : 0;
    });
    const p = inkPeriod(profile, 0, 400, 4, 24);
    expect(p).not.toBeNull();
    expect(Math.abs(p! - 10)).toBeLessThan(0.5);
  });

  it('finds no period in unpatterned ink', () => {
    const flat = new Float32Array(400).fill(0.3);
    expect(inkPeriod(flat, 0, 400, 4, 24)).toBeNull();
  });
});
