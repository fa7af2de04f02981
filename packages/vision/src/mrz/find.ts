import type { Point, RgbImage } from '../image/raster.ts';
import { upscaleForOcr } from '../image/upscale.ts';
import { detectText, type TextBox } from '../ocr/detect.ts';
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
 * scale (upscaled when small) and reads every line when that detection shows an MRZ-like band;
 * it is paid only when the first reading found no MRZ and something suggests there is one.
 */

/** Long side the frame is upscaled to (Lanczos) before the finer detection, when smaller. */
const FINE_LONG_SIDE = 1280;
/** Detection working size of the second look (4× the first pass's pixels at 1280). */
const FINE_DETECT_SIDE = 1280;
/** Text lines below this height (px in the frame) are still read: small cards in a composite. */
const FINE_MIN_LINE_HEIGHT = 5;
/** A page with fewer lines than this was barely read: its MRZ may be among what was not. */
const FEW_LINES = 6;
/** This many first-detection boxes outside the crop read are another document beside it. */
const OTHER_DOCUMENT_BOXES = 4;

/**
 * Whether a page read without an MRZ deserves a second look: MRZ-like rows were seen but not read
 * as an MRZ, too little text was read to tell, or only a region of the frame was read (another
 * document may lie beside it, its text too small for the first detection to see). A page that
 * filled the frame and was read in full with no MRZ-like row (a card front, Niger's paper card)
 * is not looked at again.
 */
export function worthSecondLook(view: PageView): boolean {
  if (mrzRows(view.page.lines).length > 0) return true;
  if (view.page.lines.length < FEW_LINES) return true;
  return view.focused || (view.outside ?? 0) >= OTHER_DOCUMENT_BOXES;
}

/**
 * The whole frame detected at a finer scale; read in full only when the detection shows an
 * MRZ-like band (two long thin parallel boxes stacked closely), so that a frame without one costs
 * a detection only. Returns the reading with its MRZ, or null.
 */
export async function secondLook(img: RgbImage): Promise<{ view: PageView; mrz: MrzReading } | null> {
  const { image, factor } = await upscaleForOcr(img, FINE_LONG_SIDE);
  const boxes = await detectText(image, { maxSide: FINE_DETECT_SIDE });
  if (!hasMrzBand(boxes)) return null;
  const page = await readPage(image, {
    boxes,
    detectSide: FINE_DETECT_SIDE,
    minLineHeight: FINE_MIN_LINE_HEIGHT * factor,
  });
  const mrz = await mrzFromPage(image, page);
  if (!mrz) return null;
  const toSource = ([x, y]: Point): Point => [x / factor, y / factor];
  return { view: { image, page, toSource, focused: false }, mrz };
}

/** Boxes at least this many times longer than tall may be MRZ rows (a TD1 row is ~15:1). */
const MRZ_ROW_ASPECT = 8;

/** Two long thin boxes, parallel, of about the same height, less than three heights apart. */
export function hasMrzBand(boxes: TextBox[]): boolean {
  const rows = boxes.filter((b) => b.rect.long >= MRZ_ROW_ASPECT * b.rect.short);
  for (let i = 0; i < rows.length; i++)
    for (let j = i + 1; j < rows.length; j++) {
      const a = rows[i]!.rect;
      const b = rows[j]!.rect;
      const h = Math.max(a.short, b.short);
      if (Math.min(a.short, b.short) < 0.6 * h) continue;
      let turn = Math.abs(a.angle - b.angle);
      turn = Math.min(turn, Math.PI - turn);
      if (turn > 0.1) continue;
      if (Math.hypot(a.cx - b.cx, a.cy - b.cy) > Math.max(a.long, b.long)) continue;
      // Distance across the rows (along a's normal).
      const across = Math.abs(-(b.cx - a.cx) * Math.sin(a.angle) + (b.cy - a.cy) * Math.cos(a.angle));
      if (across < 3 * h) return true;
    }
  return false;
}
