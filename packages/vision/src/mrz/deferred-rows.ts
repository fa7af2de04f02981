import { MRZ_LAYOUTS, type MrzFormat } from '@idv/core';
import type { RgbImage } from '../image/raster.ts';
import type { DecodedChar } from '../ocr/ctc.ts';
import type { PageReading } from '../ocr/page.ts';
import { type MrzRow, stacked } from './locate.ts';
import type { ModelMrzReading } from './model-read.ts';
import { blockInkChars, formatFromInk } from './row-extent.ts';

/**
 * The MRZ blocks among the rows the page reading left unread (page.ts deferMrzRows), found from
 * their geometry and ink alone: stacked rows (locate.ts `stacked`) whose ink says a format
 * (row-extent.ts). The MRZ model reads such a block first; only when its reading is not sure do
 * the rows get their PP-OCR reading (mrz/read.ts). Printed words have word gaps the ink does not
 * measure as MRZ, so a stack of printed lines yields no block here and goes the full way.
 */

export interface DeferredBlock {
  /** The block's rows at the ink's extent, without a reading (`mrz` and `text` empty). */
  rows: MrzRow[];
  format: MrzFormat;
}

/**
 * The deferred lines as rows without a reading, top to bottom; pieces of one row (the detector
 * split it) are joined as mrzRows joins them.
 */
export function deferredRows(page: PageReading): MrzRow[] {
  const pieces = page.lines
    .map((l, i) => ({ l, i }))
    .filter(({ l }) => l.deferred)
    .sort((a, b) => a.l.left - b.l.left);
  const rows: MrzRow[] = [];
  for (const { l, i } of pieces) {
    const row = rows.find(
      (r) => Math.abs(r.y - l.y) < 0.5 * Math.max(r.height, l.height) && l.left > r.right - 0.5 * l.height,
    );
    if (row) {
      row.right = Math.max(row.right, l.left + l.length);
      row.parts.push(i);
      continue;
    }
    rows.push({
      mrz: { text: '', probs: [] },
      text: '',
      x: l.x,
      y: l.y,
      left: l.left,
      right: l.left + l.length,
      height: l.height,
      confidence: 0,
      parts: [i],
      posteriors: null,
    });
  }
  return rows.sort((a, b) => a.y - b.y);
}

/** Stacks of 2 or 3 deferred rows whose ink says their format, top to bottom. */
export function deferredBlocks(img: RgbImage, page: PageReading): DeferredBlock[] {
  const rows = deferredRows(page);
  const out: DeferredBlock[] = [];
  for (let i = 0; i < rows.length; i++) {
    for (const count of [2, 3]) {
      const group = rows.slice(i, i + count);
      if (group.length !== count || !stacked(group)) continue;
      const ink = blockInkChars(img, page, group);
      const format = ink ? formatFromInk(count, ink.chars) : null;
      if (ink && format) out.push({ rows: ink.rows, format });
    }
  }
  return out;
}

/**
 * Gives the deferred lines of a block settled by the MRZ model their text from its reading, so
 * that what reads the page afterwards (legibility, the document's wording, the tamper step's
 * line boxes) sees the MRZ as read. A line that is the whole row gets the whole line; a piece
 * gets the characters its share of the row's extent holds. Characters carry the model's
 * probability at their position.
 */
export function settleBlock(page: PageReading, rows: MrzRow[], reading: ModelMrzReading): void {
  const n = MRZ_LAYOUTS[reading.format].lineLength;
  rows.forEach((row, li) => {
    const line = reading.lines[li]!;
    const positions = reading.decoded[li]!.positions;
    const span = Math.max(1e-6, row.right - row.left);
    for (const index of row.parts) {
      const l = page.lines[index]!;
      if (!l.deferred) continue;
      const whole = row.parts.length === 1;
      const a = whole ? 0 : clamp(Math.round(((l.left - row.left) / span) * n), 0, n);
      const b = whole ? n : clamp(Math.round(((l.left + l.length - row.left) / span) * n), a, n);
      const chars: DecodedChar[] = [];
      for (let at = a; at < b; at++) {
        const q = positions[at]!;
        const alt = q.alternatives[0];
        chars.push({ char: line[at]!, prob: q.prob, alt: alt?.char ?? null, altProb: alt?.prob ?? 0, t: at });
      }
      const confidence = chars.length ? chars.reduce((s, c) => s + c.prob, 0) / chars.length : 0;
      page.settleDeferred(index, { text: line.slice(a, b), chars, confidence });
    }
  });
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}
