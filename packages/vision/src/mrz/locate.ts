import { MRZ_LAYOUTS, type MrzFormat } from '@idv/core';
import type { TextLine } from '../ocr/page.ts';
import { type CorrectedMrz, correctMrz, type MrzReadingLine } from './correct.ts';
import { KEPT_FIRST_LETTERS } from './positions.ts';
import { type BlockInk, formatFromInk } from './row-extent.ts';

/**
 * Finds the MRZ among the text lines of a page: rows of MRZ-alphabet text, 2 or 3 of them
 * stacked with the same left edge, whose lengths fit TD1/TD2/TD3. The candidate with the most
 * check digits holding wins. Anything that does not look like an MRZ yields null: the reader
 * must never invent an MRZ on a document without one.
 */

export interface MrzRow {
  /** The reading restricted to A-Z 0-9 <. */
  mrz: MrzReadingLine;
  /** Unrestricted reading, to tell MRZ text from printed words. */
  text: string;
  x: number;
  y: number;
  left: number;
  right: number;
  height: number;
  confidence: number;
  /** Indexes of the page lines merged into this row. */
  parts: number[];
  /** The page recogniser's posteriors of the row when it is a single page line (else null). */
  posteriors: TextLine['mrzPosteriors'] | null;
  /** Character pitch measured on the row's ink (row-extent.ts), page-frame units; absent if not measured. */
  pitch?: number;
}

export interface FoundMrz extends CorrectedMrz {
  format: MrzFormat;
  rows: MrzRow[];
  /** Mean recogniser confidence over the MRZ characters. */
  confidence: number;
}

/** Shortest reading considered an MRZ line (TD1 lines are 30; the reader may lose fillers). */
const MIN_ROW_CHARS = 20;
/**
 * Shortest reading kept as an MRZ row when the block's ink is measured (mrzCandidates with
 * `inkChars`): a TD1 middle row with an empty optional part is 11 fillers and a check digit the
 * reader may drop (30 read as 19), and a degraded row (halftone, blur) may be read as a few
 * pieces of which most are lost. Such rows make a candidate only when the ink measures every row
 * of the block at the format's length (inkOnly below); 4 is the shortest piece a row is made of.
 */
const MIN_INKED_ROW_CHARS = 4;
/** Share of the unrestricted reading that must already be MRZ characters (rejects printed words). */
const MIN_MRZ_CHAR_SHARE = 0.8;
/** Rows of one MRZ are at most this many line heights apart (centre to centre). */
const MAX_ROW_GAP = 2.6;
/** Left edges of MRZ rows agree within this many line heights (monospaced, left-aligned block). */
const MAX_LEFT_SHIFT = 1.5;

function isMrzChar(c: string): boolean {
  return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '<';
}

/**
 * Joins pieces of the same row that the detector split, left to right. Rows read shorter than
 * `minChars` are left out (MIN_ROW_CHARS unless the caller measures the rows' ink).
 */
export function mrzRows(lines: TextLine[], minChars = MIN_ROW_CHARS): MrzRow[] {
  const pieces = lines
    .map((l, i) => ({ l, i }))
    .filter(({ l }) => l.mrz.text.length >= 4)
    .sort((a, b) => a.l.left - b.l.left);
  const rows: MrzRow[] = [];
  for (const { l, i } of pieces) {
    const mrz: MrzReadingLine = { text: l.mrz.text, probs: l.mrz.chars.map((c) => c.prob) };
    const text = l.text.replace(/\s+/g, '');
    const row = rows.find(
      (r) =>
        Math.abs(r.y - l.y) < 0.5 * Math.max(r.height, l.height) &&
        l.left > r.right - 0.5 * l.height &&
        sameRow(r, { left: l.left, length: l.length, height: l.height, text, chars: mrz.text.length }),
    );
    if (row) {
      row.mrz = { text: row.mrz.text + mrz.text, probs: [...row.mrz.probs, ...mrz.probs] };
      row.text += text;
      row.right = l.left + l.length;
      row.parts.push(i);
      row.posteriors = null;
      row.confidence = Math.min(row.confidence, l.mrz.confidence);
    } else {
      rows.push({
        mrz,
        text,
        x: l.x,
        y: l.y,
        left: l.left,
        right: l.left + l.length,
        height: l.height,
        confidence: l.mrz.confidence,
        parts: [i],
        posteriors: l.mrzPosteriors ?? null,
      });
    }
  }
  return rows
    .filter((r) => r.mrz.text.length >= minChars && mrzShare(r.text) >= MIN_MRZ_CHAR_SHARE)
    .sort((a, b) => a.y - b.y);
}

/**
 * Pieces of one MRZ row are MRZ text on both sides of a small gap. Printed words far from an MRZ
 * line at the same height (the front of a card photographed beside its back: "Sexe F" level with
 * the back's first MRZ line) are another text, not a piece of the row. Across a wide gap, MRZ
 * text on both sides is one row only while the row so joined spans no more characters than an
 * MRZ line holds (MAX_ROW_SPAN_CHARS): capitals of the front ("PLACE OF BIRTH OUAGADOUGOU") level
 * with the back's first row read as MRZ characters too, and joined to it they made a row of 53
 * characters that fits no format, so the MRZ was not found.
 */
const MAX_FOREIGN_GAP = 2;
function sameRow(row: MrzRow, piece: RowPiece): boolean {
  if (piece.left - row.right <= MAX_FOREIGN_GAP * Math.max(row.height, piece.height)) return true;
  if (mrzShare(row.text) < MIN_MRZ_CHAR_SHARE || mrzShare(piece.text) < MIN_MRZ_CHAR_SHARE) return false;
  return rowSpanChars(row, piece) <= MAX_ROW_SPAN_CHARS;
}

/** A page line about to be joined to a row (page-frame units). */
interface RowPiece {
  left: number;
  length: number;
  height: number;
  /** Unrestricted reading, white space removed. */
  text: string;
  /** Characters of its MRZ-alphabet reading. */
  chars: number;
}

/**
 * Longest row, in characters, that pieces across a wide gap may make: a TD3 line (44) and a few
 * characters of slack for a pitch measured on pieces that lost fillers or gained a character.
 */
const MAX_ROW_SPAN_CHARS = 50;

/**
 * Characters the row would span from its left edge to the piece's right end, at the coarser of
 * the two character pitches (length per character read): the coarser pitch counts fewer, so a
 * row is split only when even it makes the span too long for one MRZ line.
 */
function rowSpanChars(row: MrzRow, piece: RowPiece): number {
  const pitch = Math.max((row.right - row.left) / row.mrz.text.length, piece.length / piece.chars);
  return (piece.left + piece.length - row.left) / pitch;
}

function mrzShare(text: string): number {
  if (!text) return 0;
  let n = 0;
  for (const c of text) if (isMrzChar(c)) n++;
  return n / text.length;
}

export interface MrzCandidate {
  rows: MrzRow[];
  format: MrzFormat;
  /** The page reading of these rows, corrected; null when it does not even parse. */
  found: FoundMrz | null;
  score: number;
  /**
   * True when the rows' ink (row-extent.ts), not their reading, makes this block of this format:
   * its rows are then the ink's extent, longer than the reading (fillers dropped, box cut short).
   */
  extended?: boolean;
}

/** Measures a block's characters per row on its ink (row-extent.ts's blockInkChars). */
export type BlockInkMeasure = (rows: MrzRow[]) => BlockInk | null;

/**
 * Rows read shorter than the ink's format by at least this many characters are taken at the
 * ink's extent and format: fewer is the tolerance correct.ts already pads.
 */
const MIN_INK_EXTENSION = 3;
/** Below any parsed candidate (which scores about -10 per failing check digit) but above unparsed ones. */
const UNPARSED_INK_SCORE = -1000;

/**
 * Every stack of 2 or 3 MRZ-like rows with each format it could be, best first. With `inkChars`,
 * a block whose ink holds clearly more characters than its reading (a TD3 read as 36
 * characters) is a candidate of the ink's format, and not of a shorter format for those rows.
 */
export function mrzCandidates(lines: TextLine[], inkChars?: BlockInkMeasure): MrzCandidate[] {
  const out: MrzCandidate[] = [];
  for (const { group, inkOnly } of rowGroups(lines, !!inkChars)) {
    const count = group.length;
    const ink = inkExtension(group, inkChars, inkOnly);
    if (inkOnly && !ink) continue;
    for (const format of ['TD1', 'TD2', 'TD3'] as MrzFormat[]) {
      if (MRZ_LAYOUTS[format].lineCount !== count || passportAsCard(group[0]!.mrz.text, format)) continue;
      if (inkOnly && format !== ink!.format) continue;
      if (ink && format === ink.format) {
        const found = readGroup(ink.rows, format);
        const score = found ? groupScore(found) : UNPARSED_INK_SCORE;
        out.push({ rows: ink.rows, format, found, score, extended: true });
        continue;
      }
      // The ink says these rows are longer than this format's: not this format.
      if (ink && MRZ_LAYOUTS[format].lineLength < MRZ_LAYOUTS[ink.format].lineLength) continue;
      if (!lengthsFit(group, format)) continue;
      const found = readGroup(group, format);
      out.push({ rows: group, format, found, score: found ? groupScore(found) : Number.NEGATIVE_INFINITY });
    }
  }
  return out.sort((a, b) => b.score - a.score);
}

/**
 * Fillers a block's reading must hold to be a candidate on its reading. Every MRZ has at least
 * '<<' between surname and given names, and most have filler runs; the page reading's
 * MRZ-alphabet reading keeps most of them. Stacked lines of printed capitals (a card's title over
 * a line of microtext and its number) have none, yet read at MRZ lengths, a format-constrained
 * decoding of them can make two check digits hold by choosing among its alternatives (an
 * invented MRZ). A block with fewer (a halftone MRZ whose chevrons were read as dashes) is a
 * candidate only as its ink says (inkOnly).
 */
const MIN_BLOCK_FILLERS = 2;
function blockFillers(group: MrzRow[]): number {
  let n = 0;
  for (const r of group) for (const c of r.mrz.text) if (c === '<') n++;
  return n;
}

/**
 * Stacks of 2 or 3 MRZ-like rows: consecutive rows read at MRZ length, and, when the ink is
 * measured (`withInk`), stacks holding a row read short. `inkOnly`: the block is an MRZ only as
 * its ink says, every row measured at the format's length (a row read short, or too few fillers
 * read); without the ink such blocks are no candidates. A short row is chained to the nearest
 * stacked row below it rather than to the next row by height: short pieces of other text (a
 * composite's front beside the MRZ) lie between MRZ rows in that order.
 */
function rowGroups(lines: TextLine[], withInk: boolean): { group: MrzRow[]; inkOnly: boolean }[] {
  const out: { group: MrzRow[]; inkOnly: boolean }[] = [];
  const push = (group: MrzRow[], short: boolean) => {
    const inkOnly = short || blockFillers(group) < MIN_BLOCK_FILLERS;
    if (!inkOnly || withInk) out.push({ group, inkOnly });
  };
  const rows = mrzRows(lines);
  for (let i = 0; i < rows.length; i++)
    for (const count of [2, 3]) {
      const group = rows.slice(i, i + count);
      if (group.length === count && stacked(group)) push(group, false);
    }
  if (!withInk) return out;
  const all = mrzRows(lines, MIN_INKED_ROW_CHARS);
  const below = (r: MrzRow) => all.find((b) => b.y > r.y && stacked([r, b]));
  for (const first of all) {
    const group = [first];
    for (let next = below(first); next && group.length < 3; next = below(next)) {
      group.push(next);
      if (group.some((r) => r.mrz.text.length < MIN_ROW_CHARS)) push([...group], true);
    }
  }
  return out;
}

/**
 * Rows of an ink-only block whose ink may go unmeasured, by the block's row count: one of a TD1's
 * three (a halftone or tilted row whose profile gives no clear pitch) when the two others
 * measure 30; none of two rows, where one row alone would decide the format.
 */
const MAX_UNMEASURED_ROWS: Record<number, number> = { 2: 0, 3: 1 };

/**
 * The ink's format and rows for `group` when they are longer than its reading, else null. With
 * `inkOnly` the ink is always measured and its format returned whatever the reading's length,
 * but only when every row was measured at that format's length: the block is then the ink's or
 * nothing.
 */
function inkExtension(
  group: MrzRow[],
  inkChars: BlockInkMeasure | undefined,
  inkOnly = false,
): { format: MrzFormat; rows: MrzRow[] } | null {
  if (!inkChars) return null;
  const lengths = group.map((r) => r.mrz.text.length).sort((a, b) => a - b);
  const read = lengths[Math.floor(lengths.length / 2)]!;
  // A block read at the longest length of its line count needs no measuring (the common case
  // costs nothing); a 2-row block read at 36 may still be a TD3 that lost its fillers.
  const longest = Math.max(
    ...Object.values(MRZ_LAYOUTS)
      .filter((L) => L.lineCount === group.length)
      .map((L) => L.lineLength),
  );
  if (read >= longest && !inkOnly) return null;
  const ink = inkChars(group);
  if (!ink) return null;
  const format = formatFromInk(group.length, ink.chars);
  if (!format) return null;
  if (inkOnly) {
    const each = ink.counts ?? [];
    const unmeasured = each.filter((c) => c === null).length;
    if (
      each.length !== group.length ||
      unmeasured > MAX_UNMEASURED_ROWS[group.length]! ||
      each.some((c) => c !== null && formatFromInk(group.length, c) !== format)
    )
      return null;
  } else if (MRZ_LAYOUTS[format].lineLength < read + MIN_INK_EXTENSION) return null;
  return { format, rows: ink.rows };
}

/**
 * ICAO 9303 gives passports (document code P) the TD3 format only: TD2 documents are cards (A, C,
 * I) and MRV-B visas (V) (9303-6, -7). Read as a TD2, the MRZ of a passport whose personal number
 * is empty passes every check digit: its second line's first 28 characters are the TD2's fields,
 * and its composite, over fillers that count 0, is the TD2's. A passport whose rows were read
 * short (a filler run not detected) was so returned as a wrong MRZ no check caught. A 2-row block
 * whose first row starts with P is therefore never a TD2.
 */
export function passportAsCard(firstRow: string, format: MrzFormat): boolean {
  return format === 'TD2' && firstRow.startsWith('P');
}

/** Best MRZ among the page lines as read by the page OCR, or null. */
export function locateMrz(lines: TextLine[]): FoundMrz | null {
  const best = mrzCandidates(lines).find((c) => c.found && plausible(c.found));
  return best?.found ?? null;
}

/**
 * Rows could belong to this format: none longer than the format's line by more than a few
 * characters (a reading is shorter when fillers or the line's end were lost, rarely longer).
 */
function lengthsFit(group: MrzRow[], format: MrzFormat): boolean {
  const n = MRZ_LAYOUTS[format].lineLength;
  return group.every((r) => r.mrz.text.length <= n + 3);
}

export function stacked(group: MrzRow[]): boolean {
  for (let k = 1; k < group.length; k++) {
    const a = group[k - 1]!;
    const b = group[k]!;
    const h = Math.max(a.height, b.height);
    if (b.y - a.y > MAX_ROW_GAP * h || b.y - a.y < 0.5 * h) return false;
    if (Math.abs(b.left - a.left) > MAX_LEFT_SHIFT * h) return false;
  }
  return true;
}

function readGroup(group: MrzRow[], format: MrzFormat): FoundMrz | null {
  const fixed = correctMrz(
    group.map((r) => r.mrz),
    format,
  );
  if (!fixed || fixed.parsed.format !== format) return null;
  const probs = group.flatMap((r) => r.mrz.probs);
  const confidence = probs.length ? probs.reduce((s, p) => s + p, 0) / probs.length : 0;
  return { ...fixed, format, rows: group, confidence };
}

/** Fewer failing check digits first, then lines closer to the nominal length, then confidence. */
export function groupScore(f: FoundMrz): number {
  const L = MRZ_LAYOUTS[f.format];
  const invalid = f.parsed.checks.filter((c) => !c.valid).length;
  const lengthError = f.rows.reduce((s, r) => s + Math.abs(r.mrz.text.length - L.lineLength), 0);
  return -invalid * 10 - lengthError + f.confidence;
}

/**
 * The document code's first letter is fixed by the format (ICAO 9303-4, -5, -7; the constrained
 * decoder's sets, positions.ts KEPT_FIRST_LETTERS): P or V on a TD3, A, C or I on a card, V too
 * on a TD2 (an MRV-B visa). A legacy reading (the page's, corrected by correct.ts, which repairs
 * the letter's class only) can return a passport's first line read from a misaligned crop
 * (`ACSZSO…` for `P<NERSA…`), its check digits on the second line holding: not a reading of this
 * MRZ.
 */
export function codeFitsFormat(firstLine: string, format: MrzFormat): boolean {
  // A TD2's letters leave P out: a passport's rows read as a card's are turned away here too
  // (passportAsCard).
  return firstLine.length > 0 && KEPT_FIRST_LETTERS[format].includes(firstLine[0]!);
}

/**
 * The last guard against inventing an MRZ: a real one has fillers ('<<' somewhere), starts with
 * the letter its format allows (the document code), and either a check digit holds or every field has its ICAO shape
 * (dates of six digits that are real dates, sex M/F/X/<, state codes of letters). The second
 * branch keeps specimens whose printed check digits are all wrong; printed text that merely
 * looks like MRZ characters does not have that shape at the right positions.
 */
export function plausible(f: { lines: string[]; parsed: FoundMrz['parsed'] }): boolean {
  if (!codeFitsFormat(f.lines[0]!, f.parsed.format)) return false;
  if (!f.lines.some((l) => l.includes('<<'))) return false;
  if (f.parsed.checks.some((c) => c.valid && c.name !== 'composite')) return true;
  return f.parsed.fieldsWellFormed && f.parsed.dateOfBirth !== null && f.parsed.dateOfExpiry !== null;
}
