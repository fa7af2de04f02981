import type { TextLine } from '../../src/ocr/page.ts';

/**
 * A page line as the page reader returns it, read with certainty at `pitch` px per character from
 * `left`: the MRZ finding tests (rows, joins, blocks) build their pages from these.
 */
export function readLine(text: string, y: number, left = 0, pitch = 17): TextLine {
  const length = text.length * pitch;
  const decoded = { text, chars: [...text].map((c) => ({ char: c, prob: 0.99 })), confidence: 0.99 };
  return {
    text,
    confidence: 0.99,
    mrz: decoded,
    full: decoded,
    y,
    x: left + length / 2,
    left,
    length,
    height: 40,
  } as unknown as TextLine;
}
