import { emptyPrintedFields, type ImageKind, type Observations, type PrintedFields } from '@idv/core';
import { withCardNumberShape } from './document/card-number.ts';
import { classifyDocument } from './document/classify.ts';
import { splitComposite } from './document/composite.ts';
import {
  KEY_PRINTED_FIELDS,
  keyFieldRead,
  keyFieldsRead,
  readFiner,
  readPadded,
  worthFinerReading,
  worthPaddedReading,
} from './document/finer-printed.ts';
import type { FieldBoxObservation, TextBoxObservation } from './document/text-boxes.ts';
import type { NormalizedImage } from './image/normalize.ts';
import type { Point, Quad } from './image/raster.ts';
import { secondLook, worthSecondLook } from './mrz/find.ts';
import { type MrzReading, mrzFromPage, warmUpMrz } from './mrz/read.ts';
import { turnedLook } from './mrz/turned-look.ts';
import { type PageView, readDocumentPage } from './ocr/focus.ts';
import { warmUpOcr } from './ocr/models.ts';
import { mrzRowOcrDeferred } from './ocr/page.ts';
import { type FieldSource, readPrintedFieldsWithSources, unparsedLeft } from './viz/fields.ts';

/**
 * Reads a document photo (and the back of a card): OCR of every line, the MRZ, the printed
 * fields, the document type and country. Observations only; `core` judges them.
 */

export interface DocumentReading {
  document: Observations['document'];
  mrz: Observations['mrz'];
  printed: PrintedFields;
  /** Integer milliseconds per step: ocr_ms, mrz_ms, viz_ms, reading_ms. */
  timings: Record<string, number>;
  /** Every OCR line with its text and confidence, per image (used by the tamper engineer's font checks). */
  textBoxes: TextBoxObservation[];
  /** The field values' own boxes (MRZ lines and printed values), see FieldBoxObservation. */
  fieldBoxes: FieldBoxObservation[];
  /** The MRZ as parsed, when one was read (for callers that need more than the observation). */
  mrzDetails: MrzReading | null;
}

export interface ReadDocumentOptions {
  documentType?: 'passport' | 'cni';
}

/** Loads the OCR models once per process. */
export async function warmUp(): Promise<void> {
  await warmUpOcr();
  await warmUpMrz();
}

export async function readDocument(
  images: { front: NormalizedImage; back?: NormalizedImage },
  opts: ReadDocumentOptions = {},
): Promise<DocumentReading> {
  const start = performance.now();
  // Each side is read from a view of it: the photo itself, or the document located in it and
  // straightened when it is small in the frame (ocr/focus.ts).
  const pages: SideView[] = [];
  let ocrMs = 0;
  for (const side of ['front', 'back'] as const) {
    const img = images[side];
    if (!img) continue;
    const t = performance.now();
    // The MRZ-like rows are left to the MRZ reader (mrzFromPage below reads or settles them).
    pages.push({ side, ...(await readDocumentPage(img, { deferMrzRows: mrzRowOcrDeferred() })) });
    ocrMs += performance.now() - t;
  }

  // The MRZ: on the back of a card, on the front of a passport; the back is tried first.
  const tMrz = performance.now();
  let mrz: MrzReading | null = null;
  let mrzSide: 'front' | 'back' = 'front';
  for (const p of [...pages].sort((a, b) => (a.side === 'back' ? -1 : b.side === 'back' ? 1 : 0))) {
    const found = await mrzFromPage(p.image, p.page);
    if (found && (!mrz || (found.parsed.valid && !mrz.parsed.valid))) {
      mrz = found;
      mrzSide = p.side;
    }
  }
  // A zone whose check digits fail may be a degraded capture misread (rows read in pieces whose
  // ink measures a shorter format): the finer second look is tried as well, and its reading is
  // kept only when it passes the checks. A genuinely wrong printed digit fails both readings.
  if (!mrz?.parsed.valid) {
    const again = await lookAgain(images, pages, mrz ? (m) => m.parsed.valid : () => true);
    if (again) ({ mrz, side: mrzSide } = again);
  }
  const mrzMs = performance.now() - tMrz;

  const tViz = performance.now();
  const frontView = pages.find((p) => p.side === 'front')!;
  const front = frontView.page;
  const back = pages.find((p) => p.side === 'back')?.page;
  let zone = readPrintedZone(pages, mrz, mrz?.lineIndexes ?? [], mrzSide);
  // Key printed fields missed on a page detected below its resolution: the front is read again
  // finer (document/finer-printed.ts), and that reading is kept when it finds more of them.
  const frontIndex = pages.findIndex((p) => p.side === 'front');
  if (keyFieldsRead(zone.fields) < KEY_PRINTED_FIELDS.length && worthFinerReading(pages[frontIndex]!)) {
    const finer = [...pages];
    finer[frontIndex] = { side: 'front', ...(await readFiner(pages[frontIndex]!)) };
    // The finer page leaves its MRZ-like rows unread: those are the MRZ's lines there.
    const mrzIndexes =
      mrzSide === 'front'
        ? finer[frontIndex]!.page.lines.flatMap((l, i) => (l.deferred ? [i] : []))
        : (mrz?.lineIndexes ?? []);
    const again = readPrintedZone(finer, mrz, mrzIndexes, mrzSide);
    if (keyFieldsRead(again.fields) > keyFieldsRead(zone.fields)) zone = again;
  }
  // The same on a small scan, where a finer detection sees no more pixels: the front's printed
  // lines are read again from taller crops (document/finer-printed.ts readPadded), and the key
  // fields the first reading left unread are taken from that reading.
  if (keyFieldsRead(zone.fields) < KEY_PRINTED_FIELDS.length && worthPaddedReading(pages[frontIndex]!)) {
    const view = pages[frontIndex]!;
    const own = [...zone.frontKept, ...zone.backKept].filter((k) => k.view === view).map((k) => k.index);
    const padded = [...pages];
    padded[frontIndex] = { side: 'front', ...(await readPadded(view, own)) };
    zone = withUnreadKeyFields(zone, readPrintedZone(padded, mrz, mrz?.lineIndexes ?? [], mrzSide));
  }
  const { frontKept, backKept } = zone;
  const classification = classifyDocument({
    mrz,
    front,
    back,
    // The size of the image the front page was read from (the crop when the document was located).
    frontSize: frontView.image,
    requested: opts.documentType,
  });
  // The card's own number shape is known once its type is (document/card-number.ts).
  const { fields: printed, sources } = withCardNumberShape(classification, zone, [
    linesOf(frontKept),
    linesOf(backKept),
  ]);
  const vizMs = performance.now() - tViz;

  const allChars = pages.reduce((s, p) => s + p.page.lines.reduce((n, l) => n + l.full.chars.length, 0), 0);
  const legibility = allChars
    ? pages.reduce(
        (s, p) => s + p.page.lines.reduce((n, l) => n + l.confidence * l.full.chars.length, 0),
        0,
      ) / allChars
    : 0;

  return {
    document: {
      type: classification.type,
      layout: classification.layout,
      country: classification.country,
      legibility: clamp01(legibility),
    },
    mrz: mrz
      ? { lines: mrz.lines, side: mrzSide, corrected: mrz.corrected, confidence: clamp01(mrz.confidence) }
      : null,
    printed: { ...emptyPrintedFields(), ...printed },
    timings: {
      ocr_ms: Math.round(ocrMs),
      mrz_ms: Math.round(mrzMs),
      viz_ms: Math.round(vizMs),
      reading_ms: Math.round(performance.now() - start),
    },
    textBoxes: pages.flatMap((p) =>
      p.page.lines.map((l) => ({
        side: p.side,
        text: l.text,
        confidence: l.confidence,
        quad: l.quad.map((q) => {
          const [x, y] = p.toSource(q);
          return [Math.round(x), Math.round(y)] as [number, number];
        }),
      })),
    ),
    fieldBoxes: [
      ...(mrz
        ? mrz.lineIndexes.flatMap((index, k) => {
            const view = pages.find((p) => p.side === mrzSide)!;
            const line = view.page.lines[index];
            return line ? [fieldBox(`mrz_${k + 1}`, mrzSide, line, view.toSource, 0, 1)] : [];
          })
        : []),
      ...sources.flatMap((s) => sourceBox(s, frontKept, backKept)),
      // Values that did not parse, for fields left unread (fields.ts PrintedRead), with their
      // text: only the tamper step's glyph cue and its opt-in misfit cue look at them.
      ...unparsedLeft({ fields: printed, sources }, zone.unparsed).flatMap((s) =>
        sourceBox(s, frontKept, backKept).map((box) => ({
          ...box,
          unparsed: true as const,
          ...(s.text !== undefined ? { value: s.text } : {}),
        })),
      ),
    ],
    mrzDetails: mrz,
  };
}

type SideView = { side: 'front' | 'back' } & PageView;

/**
 * The first reading found no MRZ, or none that passes its checks: each side that deserves it
 * (mrz/find.ts) is read again at a finer scale, and, when its page was read a quarter turned,
 * turned upright (mrz/turned-look.ts), the back first; the first side whose second look
 * finds an MRZ that `accept`s keeps that reading (the page view is replaced only then).
 */
async function lookAgain(
  images: { front: NormalizedImage; back?: NormalizedImage },
  pages: SideView[],
  accept: (mrz: MrzReading) => boolean,
): Promise<{ mrz: MrzReading; side: 'front' | 'back' } | null> {
  for (const side of ['back', 'front'] as const) {
    const k = pages.findIndex((p) => p.side === side);
    const img = images[side];
    if (k < 0 || !img || !worthSecondLook(pages[k]!)) continue;
    // A page read a quarter turned is read again turned upright when the finer look fails too.
    let again = await secondLook(img, pages[k]);
    if (!again || !accept(again.mrz)) again = await turnedLook(pages[k]!);
    if (!again || !accept(again.mrz)) continue;
    pages[k] = { side, ...again.view };
    return { mrz: again.mrz, side };
  }
  return null;
}

/**
 * The lines the printed zone is read from, front and back, MRZ lines left out (they are not
 * printed fields). A card photographed front and back in one picture is split into its two
 * sides around its MRZ (document/composite.ts), so that each side's labels are read as a page.
 */
function printedZoneLines(
  pages: SideView[],
  mrz: MrzReading | null,
  mrzIndexes: number[],
  mrzSide: ImageKind,
): { frontKept: { view: SideView; index: number }[]; backKept: { view: SideView; index: number }[] } {
  const frontView = pages.find((p) => p.side === 'front')!;
  const backView = pages.find((p) => p.side === 'back');
  const mrzLines = new Set(mrzIndexes);
  const keep = (view: SideView | undefined, indexes: number[]) =>
    view
      ? indexes.filter((i) => !(view.side === mrzSide && mrzLines.has(i))).map((index) => ({ view, index }))
      : [];
  const all = (view: SideView | undefined) => (view ? view.page.lines.map((_, i) => i) : []);
  const composite =
    mrz && mrz.format === 'TD1' && mrzSide === 'front' && !backView
      ? splitComposite(frontView.page.lines, mrzIndexes)
      : null;
  if (composite)
    return { frontKept: keep(frontView, composite.front), backKept: keep(frontView, composite.back) };
  return { frontKept: keep(frontView, all(frontView)), backKept: keep(backView, all(backView)) };
}

type KeptLine = { view: SideView; index: number };

/** The page lines kept, in order: what the printed fields' sources index. */
function linesOf(kept: KeptLine[]) {
  return kept.map((k) => k.view.page.lines[k.index]!);
}

type PrintedZone = ReturnType<typeof readPrintedZone>;

/**
 * `zone` with the key printed fields it left unread (or read as names run together, which
 * keyFieldsRead does not count) taken from `again`, a reading of the same lines from other crops,
 * each with its source. Fields `zone` read are kept: the second reading only fills gaps.
 */
function withUnreadKeyFields(zone: PrintedZone, again: PrintedZone): PrintedZone {
  // Sources index the kept lines: both readings must keep the same ones.
  const same = (a: KeptLine[], b: KeptLine[]) =>
    a.length === b.length && a.every((k, i) => k.index === b[i]!.index && k.view.side === b[i]!.view.side);
  if (!same(zone.frontKept, again.frontKept) || !same(zone.backKept, again.backKept)) return zone;
  const fields = { ...zone.fields };
  let sources = zone.sources;
  for (const f of KEY_PRINTED_FIELDS) {
    if (keyFieldRead(zone.fields, f) || again.fields[f] === null) continue;
    fields[f] = again.fields[f];
    sources = [...sources.filter((s) => s.field !== f), ...again.sources.filter((s) => s.field === f)];
  }
  return { ...zone, fields, sources };
}

/** The printed fields read from the pages' printed zone lines (printedZoneLines), with their sources. */
function readPrintedZone(
  pages: SideView[],
  mrz: MrzReading | null,
  mrzIndexes: number[],
  mrzSide: ImageKind,
): { frontKept: KeptLine[]; backKept: KeptLine[] } & ReturnType<typeof readPrintedFieldsWithSources> {
  const { frontKept, backKept } = printedZoneLines(pages, mrz, mrzIndexes, mrzSide);
  const read = readPrintedFieldsWithSources(linesOf(frontKept), linesOf(backKept));
  return { frontKept, backKept, ...read };
}

/** The box of a printed value read from the kept lines (none when its line is gone). */
function sourceBox(s: FieldSource, frontKept: KeptLine[], backKept: KeptLine[]): FieldBoxObservation[] {
  const kept = (s.page === 0 ? frontKept : backKept)[s.line];
  const line = kept?.view.page.lines[kept.index];
  return kept && line ? [fieldBox(s.field, kept.view.side, line, kept.view.toSource, s.start, s.end)] : [];
}

/**
 * The part of a line's quad from `start` to `end` (fractions along the line), in source pixels.
 * The span comes from character positions in the read text, so it is widened by one character
 * height on each side (about a character's width) not to cut the value's first or last glyph.
 */
function fieldBox(
  field: string,
  side: 'front' | 'back',
  line: { quad: Quad; confidence: number; length: number; height: number },
  toSource: (p: Point) => Point,
  start: number,
  end: number,
): FieldBoxObservation {
  const pad = line.height / Math.max(1, line.length);
  const a = Math.max(0, start - pad);
  const b = Math.min(1, end + pad);
  const [tl, tr, br, bl] = line.quad;
  const along = (p: Point, q: Point, f: number): Point => [
    p[0] + (q[0] - p[0]) * f,
    p[1] + (q[1] - p[1]) * f,
  ];
  const quad = [along(tl, tr, a), along(tl, tr, b), along(bl, br, b), along(bl, br, a)].map((q) => {
    const [x, y] = toSource(q);
    return [Math.round(x), Math.round(y)] as [number, number];
  });
  return { field, side, confidence: line.confidence, quad };
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}
