import type { PrintedFields } from '@idv/core';
import type { Quad } from '../image/raster.ts';
import { upscaleForOcr } from '../image/upscale.ts';
import { isSmallScan, type PageView } from '../ocr/focus.ts';
import { readPage, type TextLine } from '../ocr/page.ts';
import { cropLine, recognizeLines } from '../ocr/recognize.ts';
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
  return KEY_PRINTED_FIELDS.filter((f) => keyFieldRead(fields, f)).length;
}

/** Whether the key field `f` was read (names run together count as not read, as above). */
export function keyFieldRead(fields: PrintedFields, f: (typeof KEY_PRINTED_FIELDS)[number]): boolean {
  const value = fields[f];
  return value !== null && !(f !== 'date_of_birth' && gluedNames(value));
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

/**
 * On a small scan (read from an upscaled copy, ocr/focus.ts) the finer detection sees no more
 * pixels, but the detector's boxes hug print of 5-6 px capitals so tightly that the crops cut
 * the tops and bottoms of the glyphs: labels are read mangled ("PRENCMS", "NEE）LE", "Prenon")
 * and the spaces between names lost ("ISSOUFFRANCOIS"), while the larger, bolder values and the
 * dates are read. Read from crops this much taller (centred on the box, a hair wider) the same
 * lines give "PRENOMS)", "NE(E)LE", "Prenom", "ISSOUF FRANCOIS" (tuning seed 7).
 */
const PADDED_HEIGHT = 1.3;
const PADDED_LENGTH = 1.03;

/** Whether a view is a small scan whose lines may be read again from padded crops (readPadded). */
export function worthPaddedReading(view: PageView): boolean {
  return !view.focused && isSmallScan(view.image);
}

/**
 * The same view with the lines of `indexes` read again from taller crops (PADDED_HEIGHT); the
 * other lines, the MRZ's among them, are left as read. The boxes are the same, so the lines keep
 * their places and indexes: a field read from the new text has the same source line. A line left
 * unread as MRZ-like (deferred, ocr/page.ts) that is among `indexes` is read too: it is not the
 * MRZ's, and a long line of names ("BINTOU ELISABETH ZALIA" on a 300-px card) is as elongated as
 * an MRZ row.
 */
export async function readPadded(view: PageView, indexes: readonly number[]): Promise<PageView> {
  const { image, factor } = await upscaleForOcr(view.image);
  const lines = view.page.lines;
  const todo = [...indexes];
  const read = await recognizeLines(todo.map((i) => cropLine(image, padded(lines[i]!.quad, factor))));
  const again: TextLine[] = [...lines];
  todo.forEach((i, k) => {
    const r = read[k]!;
    again[i] = {
      ...lines[i]!,
      text: r.full.text.trim(),
      confidence: r.full.confidence,
      full: r.full,
      mrz: r.mrz,
      mrzPosteriors: r.mrzPosteriors,
      deferred: false,
    };
  });
  return { ...view, page: { ...view.page, lines: again } };
}

/** A line's quad grown about its centre, in the upscaled copy's pixels (`factor`). */
function padded(quad: Quad, factor: number): Quad {
  const cx = (quad[0][0] + quad[1][0] + quad[2][0] + quad[3][0]) / 4;
  const cy = (quad[0][1] + quad[1][1] + quad[2][1] + quad[3][1]) / 4;
  // Along the line and across it: the quad's corners run top-left, top-right, bottom-right,
  // bottom-left, so its own axes are used (a tilted scan's lines are tilted too).
  const ux = (quad[1][0] - quad[0][0] + quad[2][0] - quad[3][0]) / 2;
  const uy = (quad[1][1] - quad[0][1] + quad[2][1] - quad[3][1]) / 2;
  const vx = (quad[3][0] - quad[0][0] + quad[2][0] - quad[1][0]) / 2;
  const vy = (quad[3][1] - quad[0][1] + quad[2][1] - quad[1][1]) / 2;
  const a = PADDED_LENGTH / 2;
  const b = PADDED_HEIGHT / 2;
  const corner = (su: number, sv: number): [number, number] => [
    (cx + su * a * ux + sv * b * vx) * factor,
    (cy + su * a * uy + sv * b * vy) * factor,
  ];
  return [corner(-1, -1), corner(1, -1), corner(1, 1), corner(-1, 1)];
}
