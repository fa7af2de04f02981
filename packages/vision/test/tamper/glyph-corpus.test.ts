import { describe, expect, it } from 'vitest';
import { drawSvg } from '../../scripts/eval/corpus/raster-io.ts';
import { glyphColumns, wholeGlyphs } from '../../scripts/eval/corpus/text.ts';
import { rgbImage } from '../../src/image/raster.ts';

/**
 * The attack corpus's glyph substitution changes a whole glyph, as a forger changes a digit or a
 * letter: never a date's dot or a name's apostrophe, whose own ink height once sized the "digit"
 * drawn in its place (a 4 px mark nobody could see, counted as a missed substitution).
 */

const box = { x: 20, y: 30, w: 420, h: 56 };

async function typed(text: string) {
  const paper = rgbImage(new Uint8Array(480 * 120 * 3).fill(236), 480, 120);
  return drawSvg(
    paper,
    `<text x="24" y="76" font-family="DejaVu Sans" font-weight="bold" font-size="40" fill="rgb(20,20,20)">${text}</text>`,
  );
}

describe('glyph substitution in the attack corpus', () => {
  it('picks whole glyphs of a date, not its dots', async () => {
    const image = await typed('07.08.2004');
    const columns = glyphColumns(image, box);
    expect(columns.length).toBe(10);
    const whole = wholeGlyphs(image, columns, box);
    // The eight digits; the two dots (the third and sixth runs) are left out.
    expect(whole.length).toBe(8);
    expect(whole).not.toContainEqual(columns[2]);
    expect(whole).not.toContainEqual(columns[5]);
  });

  it("leaves out a name's apostrophe", async () => {
    const image = await typed("N'GOURMA");
    const columns = glyphColumns(image, box);
    const whole = wholeGlyphs(image, columns, box);
    expect(whole.length).toBe(columns.length - 1);
    expect(whole).not.toContainEqual(columns[1]);
  });
});
