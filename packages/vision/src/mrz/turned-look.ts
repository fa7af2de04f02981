import { type Point, type RgbImage, rotateRgb } from '../image/raster.ts';
import { type PageView, readDocumentPage } from '../ocr/focus.ts';
import { mrzRowOcrDeferred } from '../ocr/page.ts';
import { fillersRead } from './find.ts';
import { type MrzReading, mrzFromPage } from './read.ts';

/**
 * A look at a page turned by a quarter, read again from its image turned upright. The text
 * detector is made for lines that run across the image: on a page photographed a quarter turned,
 * the large, widely spaced characters of an MRZ are found one by one instead of as rows (a card
 * back filling a portrait frame: 64 boxes, none longer than three characters), and neither the
 * first reading nor the finer second look (find.ts) finds a row. Turned upright the same image
 * reads as any other. Paid only on a page read a quarter turned whose MRZ was not found.
 */

/** A reading direction within this of ±90° (radians) is a page turned by a quarter. */
const QUARTER_TOLERANCE = 0.35;

/**
 * Fillers the turned page must show: even read character by character, an MRZ gives up a few
 * `<`; a Niger paper card turned a quarter (no MRZ) shows none and is not read a second time.
 */
const MIN_TURNED_FILLERS = 1;

/**
 * Clockwise quarter turns that bring a page read in direction `angle` (radians, image frame, y
 * down) to lines that run across the image: 1 for text reading upwards (−90°), 3 for text reading
 * downwards (+90°), 0 when the page is not turned by a quarter. Which way up the turned page
 * reads is then the page reader's own 0°/180° decision.
 */
export function uprightQuarterTurns(angle: number): 0 | 1 | 3 {
  const a = Math.atan2(Math.sin(angle), Math.cos(angle));
  if (Math.abs(a + Math.PI / 2) <= QUARTER_TOLERANCE) return 1;
  if (Math.abs(a - Math.PI / 2) <= QUARTER_TOLERANCE) return 3;
  return 0;
}

/**
 * Maps a point of `rotateRgb(img, q)` back to `img` (width `w`, height `h`), inverse of the
 * rotation's pixel mapping.
 */
export function unrotatePoint([x, y]: Point, q: 1 | 3, w: number, h: number): Point {
  return q === 1 ? [y, h - 1 - x] : [w - 1 - y, x];
}

/**
 * The MRZ of `first`'s page read again from its image turned upright, with the view it was read
 * from (its points mapped back to the input image), or null when the page is not turned by a
 * quarter or the turned reading finds no MRZ either.
 */
export async function turnedLook(first: PageView): Promise<{ view: PageView; mrz: MrzReading } | null> {
  const q = uprightQuarterTurns(first.page.angle);
  if (q === 0 || fillersRead(first.page) < MIN_TURNED_FILLERS) return null;
  const src: RgbImage = first.image;
  const view = await readDocumentPage(rotateRgb(src, q), { deferMrzRows: mrzRowOcrDeferred() });
  const mrz = await mrzFromPage(view.image, view.page);
  if (!mrz) return null;
  const toSource = (p: Point): Point =>
    first.toSource(unrotatePoint(view.toSource(p), q, src.width, src.height));
  return { view: { ...view, toSource }, mrz };
}
