import { emptyPrintedFields, type ImageSide, type Observations, type PrintedFields } from '@idv/core';
import { classifyDocument } from './document/classify.ts';
import type { NormalizedImage } from './image/normalize.ts';
import { type MrzReading, mrzFromPage } from './mrz/read.ts';
import { type PageView, readDocumentPage } from './ocr/focus.ts';
import { warmUpOcr } from './ocr/models.ts';
import { readPrintedFields } from './viz/fields.ts';

/**
 * Reads a document photo (and the back of a card): OCR of every line, the MRZ, the printed
 * fields, the document type and country. Observations only; `core` judges them.
 */

export interface TextBoxObservation {
  side: 'front' | 'back';
  text: string;
  confidence: number;
  /** Corners in the normalised image's pixels, reading order from top-left. */
  quad: [number, number][];
}

export interface DocumentReading {
  document: Observations['document'];
  mrz: Observations['mrz'];
  printed: PrintedFields;
  /** Integer milliseconds per step: ocr_ms, mrz_ms, viz_ms, reading_ms. */
  timings: Record<string, number>;
  /** Every OCR line with its text and confidence, per image (used by the tamper engineer's font checks). */
  textBoxes: TextBoxObservation[];
  /** The MRZ as parsed, when one was read (for callers that need more than the observation). */
  mrzDetails: MrzReading | null;
}

export interface ReadDocumentOptions {
  documentType?: 'passport' | 'cni';
}

/** Loads the OCR models once per process. */
export async function warmUp(): Promise<void> {
  await warmUpOcr();
}

export async function readDocument(
  images: { front: NormalizedImage; back?: NormalizedImage },
  opts: ReadDocumentOptions = {},
): Promise<DocumentReading> {
  const start = performance.now();
  // Each side is read from a view of it: the photo itself, or the document located in it and
  // straightened when it is small in the frame (ocr/focus.ts).
  const pages: ({ side: 'front' | 'back' } & PageView)[] = [];
  let ocrMs = 0;
  for (const side of ['front', 'back'] as const) {
    const img = images[side];
    if (!img) continue;
    const t = performance.now();
    pages.push({ side, ...(await readDocumentPage(img)) });
    ocrMs += performance.now() - t;
  }

  // The MRZ: on the back of a card, on the front of a passport; the back is tried first.
  const tMrz = performance.now();
  let mrz: MrzReading | null = null;
  let mrzSide: ImageSide = 'front';
  for (const p of [...pages].sort((a, b) => (a.side === 'back' ? -1 : b.side === 'back' ? 1 : 0))) {
    const found = await mrzFromPage(p.image, p.page);
    if (found && (!mrz || (found.parsed.valid && !mrz.parsed.valid))) {
      mrz = found;
      mrzSide = p.side;
    }
  }
  const mrzMs = performance.now() - tMrz;

  const tViz = performance.now();
  const frontView = pages.find((p) => p.side === 'front')!;
  const front = frontView.page;
  const back = pages.find((p) => p.side === 'back')?.page;
  // The MRZ lines are not printed fields: leave them out of the label search.
  const mrzLineSet = new Set(mrz && mrzSide === 'front' ? mrz.lineIndexes : []);
  const backMrzSet = new Set(mrz && mrzSide === 'back' ? mrz.lineIndexes : []);
  const printed = readPrintedFields(
    front.lines.filter((_, i) => !mrzLineSet.has(i)),
    (back?.lines ?? []).filter((_, i) => !backMrzSet.has(i)),
  );
  const classification = classifyDocument({
    mrz,
    front,
    back,
    // The size of the image the front page was read from (the crop when the document was located).
    frontSize: frontView.image,
    requested: opts.documentType,
  });
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
    mrzDetails: mrz,
  };
}

function clamp01(x: number): number {
  return Math.min(1, Math.max(0, x));
}
