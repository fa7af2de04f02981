import { describe, expect, it } from 'vitest';
import {
  fieldFontDeviation,
  GLYPH_HEIGHT_TOLERANCE,
  heightRuleOf,
} from '../../src/tamper/font-consistency.ts';
import { box, SIZE, typed } from './typed-line.ts';

/**
 * The height cue on fields that most documents print in capitals and some in mixed case (given
 * names, place of birth, nationality): judged only where the glyphs show capitals. A value is
 * typed in DejaVu Sans Bold on light paper; a forger's glyph is one letter of another font and
 * size standing on the same baseline.
 */

const judged = async (parts: Parameters<typeof typed>[0]) =>
  fieldFontDeviation(await typed(parts), box, undefined, { capitalsOnly: true }).height;

describe('font_inconsistency on fields printed in capitals by most documents', () => {
  it('knows which fields are judged how', () => {
    expect(heightRuleOf('date_of_birth')).toBe('uniform');
    expect(heightRuleOf('surname')).toBe('uniform');
    expect(heightRuleOf('given_names')).toBe('capitals');
    expect(heightRuleOf('place_of_birth')).toBe('capitals');
    expect(heightRuleOf('nationality')).toBe('capitals');
    expect(heightRuleOf('sex')).toBeNull();
  });

  it('judges given names in capitals, and finds no break in genuine ones', async () => {
    const height = await judged([{ text: 'MOUSSA HAMIDOU' }]);
    expect(height).not.toBeNull();
    expect(height!).toBeLessThan(GLYPH_HEIGHT_TOLERANCE);
  });

  it('flags one letter of a larger font inside capitals', async () => {
    const height = await judged([
      { text: 'MOUSSA HA' },
      { text: 'M', size: SIZE * 1.25, family: 'DejaVu Serif', weight: 'normal' },
      { text: 'IDOU' },
    ]);
    expect(height!).toBeGreaterThan(GLYPH_HEIGHT_TOLERANCE);
  });

  it('flags one letter of a smaller font standing on the baseline', async () => {
    const height = await judged([
      { text: 'MOU' },
      { text: 'S', size: SIZE * 0.75, weight: 'normal' },
      { text: 'SA HAMIDOU' },
    ]);
    expect(height!).toBeGreaterThan(GLYPH_HEIGHT_TOLERANCE);
  });

  it('leaves names in mixed case unjudged: capitals and ascenders stand above the lowercase', async () => {
    expect(await judged([{ text: 'Moussa Hamidou' }])).toBeNull();
    expect(await judged([{ text: 'Moussa' }])).toBeNull();
    expect(await judged([{ text: 'Ouagadougou' }])).toBeNull();
  });
});
