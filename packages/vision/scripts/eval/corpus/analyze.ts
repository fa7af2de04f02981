import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DocumentLayout, TamperSignal } from '@idv/core';
import { textExtent } from '../../../src/document/extent.ts';
import { type NormalizedImage, normalizeImage } from '../../../src/image/normalize.ts';
import { readDocument } from '../../../src/read-document.ts';
import { detectTamper, TAMPER_SIGNS } from '../../../src/tamper/index.ts';
import type { PointMap } from './phone-capture.ts';
import type { GenuineSource } from './types.ts';

/**
 * The tamper step as the analyzer runs it on an upload: decode, read (the reading step gives the
 * document's extent, the field boxes and the lines), then detect.
 */
export async function analyzeUpload(
  bytes: Uint8Array,
  layout: DocumentLayout,
  measures?: Record<string, number>,
): Promise<{ signals: TamperSignal[]; ms: number }> {
  const front = await normalizeImage(bytes);
  const reading = await cachedReading(bytes, () => readDocument({ front }));
  return detectOnReading(front, reading, layout, measures, bytes);
}

/**
 * The tamper step on a front already read, with what the analyzer gives it from the reading:
 * the document's extent, the field boxes and the lines.
 */
export async function detectOnReading(
  front: NormalizedImage,
  reading: Pick<Reading, 'textBoxes' | 'fieldBoxes'>,
  layout: DocumentLayout,
  measures?: Record<string, number>,
  original?: Uint8Array,
): Promise<{ signals: TamperSignal[]; ms: number }> {
  const region = textExtent(reading.textBoxes, 'front', front.width, front.height);
  const { signals, timings } = await detectTamper(
    { front, ...(original ? { originals: { front: original } } : {}) },
    {
      layout,
      documentRegions: region ? { front: region } : {},
      textBoxes: reading.fieldBoxes,
      lineBoxes: reading.textBoxes,
    },
    measures ? { measures } : {},
  );
  return { signals, ms: timings.tamper_ms ?? 0 };
}

type Reading = Awaited<ReturnType<typeof readDocument>>;

/**
 * The reading of an upload, kept on disk under IDV_EVAL_READING_CACHE (by the bytes' SHA-256)
 * when that is set: measuring the tamper step twice on the same uploads (with and without a
 * cue) then reads each image once. Only the boxes the tamper step takes are kept.
 */
async function cachedReading(
  bytes: Uint8Array,
  read: () => Promise<Reading>,
): Promise<Pick<Reading, 'textBoxes' | 'fieldBoxes'>> {
  const dir = process.env.IDV_EVAL_READING_CACHE;
  if (!dir) return read();
  const file = join(dir, `${createHash('sha256').update(bytes).digest('hex')}.json`);
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch {
    const { textBoxes, fieldBoxes } = await read();
    await mkdir(dir, { recursive: true });
    await writeFile(file, JSON.stringify({ textBoxes, fieldBoxes }));
    return { textBoxes, fieldBoxes };
  }
}

/** The tamper check fails: a sign of tampering (not a capture anomaly) at high severity. */
export const failsCheck = (signals: TamperSignal[]) =>
  signals.some((s) => TAMPER_SIGNS[s.type].maxEffect === 'fail' && s.severity === 'high');

export function layoutOfKind(kind: string): DocumentLayout {
  if (kind === 'passport') return 'td3';
  if (kind === 'id_td1') return 'td1';
  if (kind === 'id_td2') return 'td2';
  return 'unknown';
}

/**
 * The tamper step given the truth instead of the reading step: the source's field boxes and the
 * document's extent carried through the capture's geometry (`map`). Measures the detectors
 * alone, and costs no OCR (the corpus is hundreds of images). Without `map` (an attack that
 * moved the document, a screen recapture) no boxes and no extent are given.
 */
export async function analyzeWithTruth(
  bytes: Uint8Array,
  source: GenuineSource,
  map: PointMap | null,
  measures?: Record<string, number>,
): Promise<{ signals: TamperSignal[]; ms: number }> {
  const front = await normalizeImage(bytes);
  const k = front.width / front.originalWidth;
  const at = (x: number, y: number): [number, number] => {
    const [u, v] = map!(x, y);
    return [u * k, v * k];
  };
  const quadOf = (b: { x: number; y: number; w: number; h: number }) => [
    at(b.x, b.y),
    at(b.x + b.w, b.y),
    at(b.x + b.w, b.y + b.h),
    at(b.x, b.y + b.h),
  ];
  let context: Parameters<typeof detectTamper>[1] = { layout: source.layout as DocumentLayout };
  if (map) {
    const corners = quadOf({ x: 0, y: 0, w: source.image.width, h: source.image.height });
    const xs = corners.map((p) => Math.min(front.width, Math.max(0, p[0])));
    const ys = corners.map((p) => Math.min(front.height, Math.max(0, p[1])));
    const [x, y] = [Math.min(...xs), Math.min(...ys)];
    const fields = source.boxes.fields.map((f) => ({ field: f.field, side: 'front', quad: quadOf(f.box) }));
    context = {
      ...context,
      documentRegions: { front: { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y } },
      textBoxes: fields,
      lineBoxes: fields.map((f) => ({ side: 'front', text: 'field', quad: f.quad })),
    };
  }
  const { signals, timings } = await detectTamper(
    { front, originals: { front: bytes } },
    context,
    measures ? { measures } : {},
  );
  return { signals, ms: timings.tamper_ms ?? 0 };
}
