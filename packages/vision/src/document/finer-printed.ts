import type { PrintedFields } from '@idv/core';
import type { PageView } from '../ocr/focus.ts';
import { readPage } from '../ocr/page.ts';
import { gluedNames } from '../viz/label-match.ts';

/**
 * A finer reading of a page for its printed zone. The page is first detected at 640 px (long
 * side): enough for the MRZ, whose characters are the largest print on a document, but the
 * printed zone's labels and values are half that height, and on a card filling a 908×1280 frame
 * (a card turned a quarter, its long side along the frame's) they fall to 5-6 px at the
 * detector's scale: values are detected in pieces ("YA", "ICOUB") and labels not at all. Seed 7
 * #26 (TD2 card, turned 270°): nothing of the printed zone read at 640; every label and value at
 * 1280. Paid only when the first reading missed one of the key printed fields and the image has
 * the resolution to gain from it.
 */

/** Detection working size of the finer reading (the MRZ second look's, mrz/find.ts). */
export const FINER_DETECT_SIDE = 1280;
/**
 * The image's long side must exceed the first detection's 640 px by this factor: below it the
 * finer detection would see the same pixels (small scans are already read upscaled, ocr/focus.ts).
 */
const MIN_GAIN = 1.4;
/** First detection working size (ocr/focus.ts's default). */
const FIRST_DETECT_SIDE = 640;

/** The fields whose absence asks for a finer reading: the names and the date of birth (spec's grave fields). */
export const KEY_PRINTED_FIELDS = ['surname', 'given_names', 'date_of_birth'] as const;

/**
 * How many of the key printed fields were read. Names read run together ("KADIDIATOUSAKINATOU",
 * a 12-letter word: viz/label-match.ts gluedNames) count as not read: small print loses the spaces
 * between names, the finer reading often has them, and a name without them differs from the MRZ.
 */
export function keyFieldsRead(fields: PrintedFields): number {
  return KEY_PRINTED_FIELDS.filter((f) => {
    const value = fields[f];
    return value !== null && !(f !== 'date_of_birth' && gluedNames(value));
  }).length;
}

/** Whether a view's image holds detail the first detection did not see. */
export function worthFinerReading(view: PageView): boolean {
  return Math.max(view.image.width, view.image.height) >= MIN_GAIN * FIRST_DETECT_SIDE;
}

/**
 * The same view read again at the finer detection size; the MRZ-like rows are left unread
 * (deferred: empty text), since the MRZ was read already and they are no printed field.
 */
export async function readFiner(view: PageView): Promise<PageView> {
  const page = await readPage(view.image, { detectSide: FINER_DETECT_SIDE, deferMrzRows: true });
  return { ...view, page };
}
