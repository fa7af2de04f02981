import type { RgbImage } from '../image/raster.ts';
import type { PageView } from '../ocr/focus.ts';
import { readPage } from '../ocr/page.ts';
import { mrzRows } from './locate.ts';
import { type MrzReading, mrzFromPage } from './read.ts';

/**
 * A second look for an MRZ the first reading missed. The first reading detects text at 640 px
 * (long side) and, when the text is small in the frame, reads only the densest text region
 * (ocr/focus.ts): that misses the MRZ of a card photographed beside its front (the crop keeps one
 * of the two cards), of several cards or pages in a tall or wide frame, and of small scans whose
 * rows merge at the detector's scale. The second look detects the whole frame again at a finer
 * scale (upscaled when small) and reads every line; it is paid only when the first reading found
 * no MRZ and something suggests there is one to find.
 */

/** Long side the frame is upscaled to (Lanczos) before the finer detection, when smaller. */
const FINE_LONG_SIDE = 1280;
/** Detection working size of the second look (4× the first pass's pixels at 1280). */
const FINE_DETECT_SIDE = 1280;
/** Text lines below this height (px in the frame) are still read: small cards in a composite. */
const FINE_MIN_LINE_HEIGHT = 5;
/** A page with fewer lines than this was barely read: its MRZ may be among what was not. */
const FEW_LINES = 8;
/** This many first-detection boxes outside the crop read are another document beside it. */
const OTHER_DOCUMENT_BOXES = 4;

/**
 * Whether a page read without an MRZ deserves a second look: MRZ-like rows were seen but not read
 * as an MRZ, too little text was read to tell, or text was left outside the region read. A data
 * page read in full with no MRZ-like row (Niger's paper card, a card front) is not looked at again.
 */
export function worthSecondLook(view: PageView): boolean {
  if (mrzRows(view.page.lines).length > 0) return true;
  if (view.page.lines.length < FEW_LINES) return true;
  return (view.outside ?? 0) >= OTHER_DOCUMENT_BOXES;
}

/** The whole frame read at a finer detection scale, with its MRZ when it has one. */
export async function secondLook(img: RgbImage): Promise<{ view: PageView; mrz: MrzReading } | null> {
  const page = await readPage(img, {
    upscale: FINE_LONG_SIDE,
    detectSide: FINE_DETECT_SIDE,
    minLineHeight: FINE_MIN_LINE_HEIGHT,
  });
  const mrz = await mrzFromPage(img, page);
  if (!mrz) return null;
  return { view: { image: img, page, toSource: (p) => p, focused: false }, mrz };
}
