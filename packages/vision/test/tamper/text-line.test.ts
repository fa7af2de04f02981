import { describe, expect, it } from 'vitest';
import { toGrey } from '../../src/image/grey.ts';
import {
  FIELD_TONE_DIFF,
  fieldBackgroundContrast,
  straightenedWithRing,
} from '../../src/tamper/field-background.ts';
import { fieldFontDeviation, GLYPH_HEIGHT_TOLERANCE } from '../../src/tamper/font-consistency.ts';
import { detectTamper } from '../../src/tamper/index.ts';
import { measureFillTexture, smoothFillStrength } from '../../src/tamper/smooth-fill.ts';
import { isLineShaped, isOneTextLine, LIGHT_ON_DARK, textBands } from '../../src/tamper/text-line.ts';
import { bandedHeaderPage, inkBlockPage, patternedLinesPage } from './synthetic.ts';

/**
 * Field boxes that are not one line of text (a box the reader merged over a value and the line
 * under it, a box around one glyph) must not raise a field sign: the cues measure them as
 * forgeries (checked below, so the test sees the case it guards), the tamper step skips them.
 */

type Rect = { x: number; y: number; w: number; h: number };

/** Light paper with mild noise and dark glyph blocks (`rects`), 480 × 240 px. */
const page = (rects: Rect[]) => inkBlockPage(480, 240, rects, 5);

/** A row of `n` glyph blocks `h` px high with their top at `y` (a value, a label under it). */
const glyphRow = (x0: number, y: number, h: number, n: number): Rect[] =>
  Array.from({ length: n }, (_, k) => ({ x: x0 + k * Math.round(h * 0.8), y, w: Math.round(h * 0.55), h }));

const value = glyphRow(100, 80, 22, 10);
const labelUnder = glyphRow(100, 112, 11, 14);
const merged = { field: 'surname', side: 'front' as const, x: 96, y: 76, w: 240, h: 52 };
const glyph = { x: 200, y: 180, w: 16, h: 22 };
const glyphBox = { field: 'document_number', side: 'front' as const, x: 199, y: 179, w: 18, h: 24 };

describe('field boxes that are not one line of text', () => {
  it('counts the lines in a box: one for a value, two for a value merged with the line under it', () => {
    const grey = toGrey(page([...value, ...labelUnder]));
    expect(textBands(grey, { x: 96, y: 76, w: 240, h: 30 })).toBe(1);
    expect(textBands(grey, merged)).toBe(2);
    // A box with no ink (an erased value) is still one to judge.
    expect(textBands(grey, { x: 96, y: 150, w: 240, h: 30 })).toBe(0);
  });

  it('takes a glyph-sized box or a box across its text for no line', () => {
    expect(isLineShaped({ w: 18, h: 24 })).toBe(false);
    expect(isLineShaped({ w: 92, h: 524 })).toBe(false);
    expect(isLineShaped({ w: 6, h: 4 })).toBe(false);
    expect(isLineShaped({ w: 240, h: 30 })).toBe(true);
  });

  it('raises no field sign on a merged box or a glyph-sized box, which the cues would flag', async () => {
    const front = page([...value, ...labelUnder, glyph]);
    const grey = toGrey(front);
    // The cues on their own measure both as forgeries ...
    expect(fieldFontDeviation(front, merged, grey).height!).toBeGreaterThan(GLYPH_HEIGHT_TOLERANCE);
    expect(fieldBackgroundContrast(grey, glyphBox)!.toneDiff).toBeGreaterThan(FIELD_TONE_DIFF);
    expect(isOneTextLine(merged, grey, merged)).toBe(false);
    expect(isOneTextLine(glyphBox, grey, glyphBox)).toBe(false);
    // ... and the tamper step does not judge them.
    const { signals } = await detectTamper(
      { front },
      { layout: 'td1', portrait: null, textBoxes: [merged, glyphBox] },
    );
    const types = signals.map((s) => s.type);
    expect(types).not.toContain('font_inconsistency');
    expect(types).not.toContain('field_overwritten');
  });

  it('still judges a one-line box on the same page', async () => {
    const tall = glyphRow(100, 80, 22, 10);
    tall[4] = { ...tall[4]!, y: 72, h: 30 };
    const front = page([...tall, ...labelUnder]);
    const { signals } = await detectTamper(
      { front },
      {
        layout: 'td1',
        portrait: null,
        textBoxes: [{ field: 'surname', side: 'front', x: 96, y: 70, w: 240, h: 34 }],
      },
    );
    expect(signals.find((s) => s.type === 'font_inconsistency')?.field).toBe('surname');
  });

  it('does not judge light text on a dark band, which the in-painting cue takes for a fill', async () => {
    const line: [number, number][] = [
      [120, 150],
      [480, 150],
      [480, 178],
      [120, 178],
    ];
    const header = bandedHeaderPage(640, 320, line, 14, 5);
    const ring = straightenedWithRing(header, line);
    // The cue on its own: the flat band between the light letters against the pattern beyond.
    const texture = measureFillTexture(header, line, ring)!;
    expect(smoothFillStrength(texture)).not.toBeNull();
    expect(textBands(ring.canvas, ring.inner)).toBe(LIGHT_ON_DARK);
    const lineBoxes = [{ side: 'front', text: 'REPUBLIC OF UTOPIA', quad: line }];
    const judged = async (front: typeof header) =>
      (await detectTamper({ front }, { layout: 'td1', portrait: null, lineBoxes })).signals.filter(
        (s) => s.type === 'field_overwritten',
      );
    expect(await judged(header)).toEqual([]);
    // Dark letters on the same pattern are one line, still judged.
    const plain = patternedLinesPage(640, 320, [line], true, 5);
    const plainRing = straightenedWithRing(plain, line);
    expect(textBands(plainRing.canvas, plainRing.inner)).toBe(1);
  });
});
