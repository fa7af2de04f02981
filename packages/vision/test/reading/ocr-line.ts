import type { TextLine } from '../../src/ocr/page.ts';

/**
 * An OCR line as the recogniser returns it, for the printed-zone tests: upright, 20 px high, 12 px
 * per character unless `length` says otherwise, starting at `left`, centred on `y`.
 */
export function line(text: string, y: number, left = 100, length = text.length * 12): TextLine {
  return {
    quad: [
      [left, y - 10],
      [left + length, y - 10],
      [left + length, y + 10],
      [left, y + 10],
    ],
    text,
    confidence: 0.9,
    x: left + length / 2,
    y,
    length,
    height: 20,
    left,
  } as TextLine;
}
