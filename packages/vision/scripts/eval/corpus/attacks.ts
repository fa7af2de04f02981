import type { RgbImage } from '../../../src/image/raster.ts';
import { colourCopy, greyCopy, roomLight } from './photocopy.ts';
import { type SwapStyle, swapPortrait } from './portrait.ts';
import type { Rng } from './rng.ts';
import { screenRecapture } from './screen.ts';
import { inpaintField, overwriteField, substituteGlyph } from './text.ts';
import { transplantField } from './transplant.ts';
import type { Attack, GenuineSource, Rect } from './types.ts';

/** Value fields of the source (a value, not a label; the MRZ is left to the checksum checks). */
function valueFields(source: GenuineSource) {
  const values = source.boxes.fields.filter((f) => !f.field.startsWith('mrz') && f.box.w > 2 * f.box.h);
  return values.length ? values : source.boxes.fields;
}

/** The field a forger changes. */
function targetField(source: GenuineSource, rng: Rng) {
  const pool = valueFields(source);
  return pool.length ? rng.pick(pool) : null;
}

/**
 * Another value of the page copied over the field (transplant.ts); a page with one field gets
 * its own value moved a little (SIDTD's same field taken from another copy of the template).
 */
async function transplantOnField(source: GenuineSource, rng: Rng): Promise<RgbImage> {
  const target = targetField(source, rng)!;
  const others = valueFields(source).filter((f) => f !== target);
  const donor = others.length ? rng.pick(others) : target;
  return transplantField(source.image, target.box, donor.box, rng);
}

const swap =
  (style: SwapStyle) =>
  async (source: GenuineSource, rng: Rng, donor?: GenuineSource): Promise<RgbImage> =>
    swapPortrait(source.image, source.boxes.portrait!, donor!.image, donor!.boxes.portrait!, style, rng, {
      ...(source.boxes.photo ? { targetPhoto: source.boxes.photo } : {}),
      ...(donor!.boxes.photo ? { donorPhoto: donor!.boxes.photo } : {}),
    });

/** A text forgery made on one value field of the source (targetField). */
const onField =
  (edit: (image: RgbImage, box: Rect, field: string, rng: Rng) => Promise<RgbImage>) =>
  async (source: GenuineSource, rng: Rng): Promise<RgbImage> => {
    const f = targetField(source, rng)!;
    return edit(source.image, f.box, f.field, rng);
  };

/** Every attack kind of the corpus, with the sign that should catch it. */
export const ATTACKS: Attack[] = [
  { kind: 'grey_photocopy', expected: 'photocopy', make: (s, r) => greyCopy(s.image, r) },
  { kind: 'colour_photocopy', expected: 'photocopy', make: (s, r) => colourCopy(s.image, r) },
  {
    kind: 'print_photographed',
    expected: 'photocopy',
    make: async (s, r) =>
      roomLight(r.next() < 0.5 ? await greyCopy(s.image, r) : await colourCopy(s.image, r), r),
  },
  {
    kind: 'screen_recapture',
    expected: 'photo_of_screen',
    flatCapture: true,
    make: (s, r) => screenRecapture(s.image, r),
  },
  { kind: 'portrait_pasted', expected: 'portrait_edge', needs: 'portrait', make: swap('pasted') },
  { kind: 'portrait_blended', expected: 'portrait_edge', needs: 'portrait', make: swap('blended') },
  { kind: 'portrait_reglued', expected: 'portrait_edge', needs: 'portrait', make: swap('reglued') },
  { kind: 'portrait_recut', expected: 'portrait_edge', needs: 'portrait', make: swap('recut') },
  {
    kind: 'field_overwritten',
    expected: 'field_overwritten',
    needs: 'fields',
    make: onField(overwriteField),
  },
  { kind: 'field_inpainted', expected: 'field_overwritten', needs: 'fields', make: onField(inpaintField) },
  { kind: 'field_transplanted', expected: 'field_overwritten', needs: 'fields', make: transplantOnField },
  {
    kind: 'glyph_substituted',
    expected: 'font_inconsistency',
    needs: 'fields',
    make: onField(substituteGlyph),
  },
];

/** Whether the source carries what the attack needs. */
export function applicable(attack: Attack, source: GenuineSource): boolean {
  if (attack.needs === 'portrait') return !!source.boxes.portrait;
  if (attack.needs === 'fields') return source.boxes.fields.length > 0;
  return true;
}
