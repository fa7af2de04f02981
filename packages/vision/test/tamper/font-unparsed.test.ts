import { describe, expect, it } from 'vitest';
import { detectTamper } from '../../src/tamper/index.ts';
import { box, SIZE, typed } from './typed-line.ts';

/**
 * A value the reading step could not parse (a date read "237CT 1989", its "O" pasted in from
 * another font) comes to the tamper step marked `unparsed`: the glyph cue judges it, at most as
 * a review, and the field cues that compare tones do not look at it.
 */

const FORGED = [
  { text: '23 ' },
  { text: 'O', size: SIZE * 1.6, family: 'DejaVu Serif', weight: 'normal' },
  { text: 'CT 1989' },
];

async function textSigns(parts: Parameters<typeof typed>[0], unparsed: boolean) {
  const image = await typed(parts);
  const field = { field: 'date_of_birth', side: 'front', ...box, ...(unparsed ? { unparsed: true } : {}) };
  const { signals } = await detectTamper(
    { front: image },
    { layout: 'td3', portrait: null, textBoxes: [field], lineBoxes: [] },
  );
  return signals.filter((s) =>
    ['font_inconsistency', 'field_overwritten', 'partial_document'].includes(s.type),
  );
}

describe('font_inconsistency on a value that did not parse', () => {
  it('flags the substituted glyph as a review, where the same glyphs read as a date fail', async () => {
    const parsed = await textSigns(FORGED, false);
    expect(parsed).toMatchObject([{ type: 'font_inconsistency', severity: 'high' }]);
    const unparsed = await textSigns(FORGED, true);
    expect(unparsed).toHaveLength(1);
    expect(unparsed[0]).toMatchObject({ type: 'font_inconsistency', field: 'date_of_birth' });
    expect(unparsed[0]!.severity).not.toBe('high');
  });

  it('raises nothing where the ink of another mark breaks it, a review where the value parsed', async () => {
    // A component over twice a capital's width breaking the heights: a pen stroke or a stamp's
    // ring joined to the text (font-consistency.ts joinedToOtherInk), here a wide W.
    const marked = [
      { text: '23 ' },
      { text: 'W', size: SIZE * 1.6, family: 'DejaVu Serif' },
      { text: 'CT 1989' },
    ];
    expect(await textSigns(marked, true)).toEqual([]);
    const parsed = await textSigns(marked, false);
    expect(parsed).toHaveLength(1);
    expect(parsed[0]!.severity).not.toBe('high');
  });

  it('raises nothing on a genuine value', async () => {
    expect(await textSigns([{ text: '23 OCT 1989' }], true)).toEqual([]);
  });

  it('leaves an unparsed value to the glyph cue alone: no tone or border sign', async () => {
    // The value at the page's left edge, where a read field's box raises partial_document.
    const page = await typed([{ text: '23 OCT 1989' }]);
    const atEdge = { field: 'date_of_birth', side: 'front', x: 0, y: box.y, w: box.w, h: box.h };
    const run = async (unparsed: boolean) =>
      (
        await detectTamper(
          { front: page },
          {
            layout: 'td3',
            portrait: null,
            textBoxes: [{ ...atEdge, ...(unparsed ? { unparsed: true } : {}) }],
            lineBoxes: [],
          },
        )
      ).signals.map((s) => s.type);
    expect(await run(false)).toContain('partial_document');
    expect(await run(true)).not.toContain('partial_document');
  });
});
