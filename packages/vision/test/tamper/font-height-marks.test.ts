import { describe, expect, it } from 'vitest';
import { HIGH_STRENGTH } from '../../src/tamper/descriptions.ts';
import { fieldFontDeviation, GLYPH_HEIGHT_TOLERANCE } from '../../src/tamper/font-consistency.ts';
import { detectTamper } from '../../src/tamper/index.ts';
import { type InkBlock, inkBlockPage } from './synthetic.ts';

/**
 * The height cue on what is no forgery. A date printed "15 JUN 2031" in a face whose J reaches
 * below the baseline (DejaVu, many passport faces) is one font: the J's top is on the capitals'
 * line, where a glyph set larger by a forger stands on the baseline and rises above it. A stamp
 * or a pen across a value joins its ink to the glyphs: the height then breaks, but the component
 * is too wide for one glyph or fainter where it leaves the capitals. Blocks of ink stand for
 * glyphs.
 */

type Rect = InkBlock;

const CAPITAL = 22;
const TOP = 80;

/** Light paper with mild noise and dark glyph blocks, 480 × 200 px. */
const page = (rects: Rect[]) => inkBlockPage(480, 200, rects, 9);

/** Ten capitals, the fourth replaced by `odd` (its top and height). */
function field(odd: { top: number; h: number }): Rect[] {
  return Array.from({ length: 10 }, (_, k) => {
    const x = 100 + k * Math.round(CAPITAL * 0.8);
    const w = Math.round(CAPITAL * 0.55);
    return k === 3 ? { x, y: odd.top, w, h: odd.h } : { x, y: TOP, w, h: CAPITAL };
  });
}

const box = { x: 92, y: 66, w: 184, h: 52 };

describe('font_inconsistency and capitals that reach below the baseline', () => {
  it('measures a descender from its top to the baseline', () => {
    // A J 27 % taller than the capitals, all of it below the baseline.
    const j = page(field({ top: TOP, h: Math.round(CAPITAL * 1.27) }));
    expect(fieldFontDeviation(j, box).height!).toBeLessThan(0.05);
  });

  it('still measures whole a glyph as much taller that stands on the baseline, one ink throughout', () => {
    const h = Math.round(CAPITAL * 1.27);
    const larger = fieldFontDeviation(page(field({ top: TOP + CAPITAL - h, h })), box);
    expect(larger.height!).toBeGreaterThan(GLYPH_HEIGHT_TOLERANCE);
    expect(larger.foreignInk).toBe(false);
  });

  it('still measures a glyph taller at both ends', () => {
    const both = page(field({ top: TOP - 4, h: CAPITAL + 10 }));
    expect(fieldFontDeviation(both, box).height!).toBeGreaterThan(GLYPH_HEIGHT_TOLERANCE);
  });
});

describe('font_inconsistency and ink of another mark across a value', () => {
  const w = Math.round(CAPITAL * 0.55);
  const stroke = 4;

  it('takes a faint stroke through one glyph (a stamp ring) for another ink', () => {
    // A vertical stamp stroke through the fourth glyph, reaching 10 px above the capitals, at a
    // stamp's darkness (under the paper, 0.6 of the text's).
    const x = 100 + 3 * Math.round(CAPITAL * 0.8) + 4;
    const ring = { x, y: TOP - 10, w: stroke, h: CAPITAL + 10, tone: 105 };
    const measured = fieldFontDeviation(page([...field({ top: TOP, h: CAPITAL }), ring]), box);
    expect(measured.height!).toBeGreaterThan(GLYPH_HEIGHT_TOLERANCE);
    expect(measured.foreignInk).toBe(true);
    // The same stroke as dark as the text is the glyph's own: judged whole.
    const dark = fieldFontDeviation(page([...field({ top: TOP, h: CAPITAL }), { ...ring, tone: 25 }]), box);
    expect(dark.height!).toBeGreaterThan(GLYPH_HEIGHT_TOLERANCE);
    expect(dark.foreignInk).toBe(false);
  });

  it('makes the tamper step ask for a review, where the same height in one ink fails', async () => {
    const x = 100 + 3 * Math.round(CAPITAL * 0.8) + 4;
    const ring = { x, y: TOP - 14, w: stroke, h: CAPITAL + 14, tone: 105 };
    const fontSign = async (rects: Rect[]) => {
      const { signals } = await detectTamper(
        { front: page(rects) },
        { layout: 'td1', portrait: null, textBoxes: [{ field: 'date_of_birth', side: 'front', ...box }] },
      );
      return signals.find((s) => s.type === 'font_inconsistency');
    };
    const stamped = await fontSign([...field({ top: TOP, h: CAPITAL }), ring]);
    expect(stamped?.severity).toBe('medium');
    const h = CAPITAL + 14;
    const larger = await fontSign(field({ top: TOP + CAPITAL - h, h }));
    expect(larger?.strength).toBeGreaterThanOrEqual(HIGH_STRENGTH);
    expect(larger?.severity).toBe('high');
  });

  it('takes a mark hanging below the line for another mark', () => {
    // In the fourth glyph's place, a stamp's arc crossing the line, detached from the glyphs (a
    // blurred capture): its top 5 px under the capitals' line, reaching 16 px below the
    // baseline, as dark as the text.
    const arc = fieldFontDeviation(page(field({ top: TOP + 5, h: CAPITAL + 11 })), box);
    expect(arc.height!).toBeGreaterThan(GLYPH_HEIGHT_TOLERANCE);
    expect(arc.foreignInk).toBe(true);
    // A glyph as much taller that stands on the baseline is a glyph of this line: judged whole.
    const larger = fieldFontDeviation(page(field({ top: TOP - 11, h: CAPITAL + 11 })), box);
    expect(larger.height!).toBeGreaterThan(GLYPH_HEIGHT_TOLERANCE);
    expect(larger.foreignInk).toBe(false);
  });

  it('takes a pen line joining three glyphs and rising above them for another ink', () => {
    // A dark pen stroke along the value's top, from the first glyph to the third, rising 8 px above.
    const pen = [
      { x: 100, y: TOP - 8, w: stroke, h: 10 },
      { x: 100, y: TOP - 8, w: 2 * Math.round(CAPITAL * 0.8) + w, h: stroke },
    ];
    const measured = fieldFontDeviation(page([...field({ top: TOP, h: CAPITAL }), ...pen]), box);
    expect(measured.height!).toBeGreaterThan(GLYPH_HEIGHT_TOLERANCE);
    expect(measured.foreignInk).toBe(true);
  });
});
