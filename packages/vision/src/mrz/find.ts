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
 * is not looked at again, unless fillers were read on it (MIN_PAGE_FILLERS).
 */
export function worthSecondLook(view: PageView): boolean {
  if (mrzRows(view.page.lines).length > 0 || fillersRead(view.page) >= MIN_PAGE_FILLERS) return true;
  if (view.page.lines.length < FEW_LINES) return true;
  return view.focused || (view.outside ?? 0) >= OTHER_DOCUMENT_BOXES;
}

/**
 * Fillers read anywhere on a page that say an MRZ is there even when no row of it was read whole:
 * a small card photographed turned, its rows detected in pieces of a few characters
 * (`645438<50354`, `<<<`, `OU<`). Printed words hold no `<`; an MRZ holds ten or more.
 */
const MIN_PAGE_FILLERS = 3;
export function fillersRead(page: PageView['page']): number {
  let n = 0;
  for (const l of page.lines) for (const c of l.text) if (c === '<') n++;
  return n;
}

/**
 * The whole frame detected at a finer scale; read in full only when the detection shows an
 * MRZ-like band (two long thin parallel boxes stacked closely), so that a frame without one costs
 * a detection only. Returns the reading with its MRZ, or null.
 */
export async function secondLook(
  img: RgbImage,
  first?: PageView,
): Promise<{ view: PageView; mrz: MrzReading } | null> {
  const { image, factor } = await upscaleForOcr(img, FINE_LONG_SIDE);
  const boxes = await detectText(image, { maxSide: FINE_DETECT_SIDE });
  const words = first ? printedWords(first).map(([x, y]): Point => [x * factor, y * factor]) : [];
  if (!hasMrzBand(boxes, words)) return null;
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

/**
 * Centres (source pixels) of the lines the first reading read as printed words, not MRZ text:
 * lower case or punctuation among their characters, or a short line without a filler (a heading
 * in capitals; an MRZ row has 30 to 44 characters): a box holding one is not an MRZ row.
 */
export function printedWords(view: PageView): Point[] {
  return view.page.lines
    .filter((l) => {
      const text = l.text.replace(/\s+/g, '');
      if (text.length < 4) return false;
      let mrz = 0;
      for (const c of text) if (/[A-Z0-9<]/.test(c)) mrz++;
      if (mrz / text.length < MRZ_TEXT_SHARE) return true;
      return !text.includes('<') && mrz < MIN_MRZ_ROW_CHARS;
    })
    .map((l) => {
      const cx = l.quad.reduce((s, p) => s + p[0], 0) / 4;
      const cy = l.quad.reduce((s, p) => s + p[1], 0) / 4;
      return view.toSource([cx, cy]);
    });
}
/** Share of MRZ characters (A-Z 0-9 <) below which a reading is printed words (locate.ts's rule). */
const MRZ_TEXT_SHARE = 0.8;
/** Fewer MRZ characters than this, and no filler, is a printed line (locate.ts's shortest row). */
const MIN_MRZ_ROW_CHARS = 20;

/**
 * Two long thin boxes, parallel, of about the same height, less than three heights apart, and
 * neither holding a line already read as printed words (`words`, in the boxes' coordinates).
 */
export function hasMrzBand(boxes: TextBox[], words: Point[] = []): boolean {
  const rows = boxes.filter(
    (b) => b.rect.long >= MRZ_ROW_ASPECT * b.rect.short && !words.some((p) => inside(b, p)),
  );
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

function inside(b: TextBox, [x, y]: Point): boolean {
  const r = b.rect;
  const dx = x - r.cx;
  const dy = y - r.cy;
  const c = Math.cos(r.angle);
  const s = Math.sin(r.angle);
  return Math.abs(dx * c + dy * s) <= r.long / 2 && Math.abs(-dx * s + dy * c) <= r.short / 2;
}
