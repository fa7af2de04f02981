import {
  type AnalysisImage,
  type AnalysisOutcome,
  type AnalysisRequest,
  IMAGE_KINDS,
  type ImageKind,
  type Observations,
  ObservationsSchema,
} from '@idv/core';
import { type Extent, textExtent } from './document/extent.ts';
import type { TextBoxObservation } from './document/text-boxes.ts';
import { analyzeFaces } from './faces/analyze.ts';
import { warmUpFaceModels } from './faces/models.ts';
import { ImageInputError, type NormalizedImage, normalizeImage } from './image/normalize.ts';
import { assessSharpness } from './quality/sharpness.ts';
import { readDocument, warmUp as warmUpReading } from './read-document.ts';
import { detectTamper } from './tamper/index.ts';
import { nativeScreenPeakRatios } from './tamper/screen.ts';

/** The analysis request of the contract (core/analysis.ts), of which vision reads the bytes only. */
export interface AnalyzerImages {
  images: Partial<Record<ImageKind, Pick<AnalysisImage, 'bytes'>>>;
  documentType?: AnalysisRequest['documentType'];
}

/**
 * The whole analysis of one verification: decode → refuse too-blurry document photos →
 * read (OCR, MRZ, printed fields, type) → faces → tamper signs. It reports what it saw;
 * `core` judges. Models are loaded once per process (warmUpAnalyzer, or on first use).
 */
export async function analyzeImages(input: AnalyzerImages): Promise<AnalysisOutcome> {
  const t0 = performance.now();
  const decoded: Partial<Record<ImageKind, NormalizedImage>> = {};
  for (const kind of IMAGE_KINDS) {
    const image = input.images[kind];
    if (!image) continue;
    try {
      decoded[kind] = await normalizeImage(image.bytes);
    } catch (error) {
      if (error instanceof ImageInputError)
        return { kind: 'refused', code: error.code, image: kind, message: error.message };
      throw error;
    }
  }
  const front = decoded.front;
  if (!front)
    return { kind: 'refused', code: 'invalid_image', image: 'front', message: 'the front image is required' };
  const normalizeMs = performance.now() - t0;

  // Spec: a too-blurry image is refused before any reading. Only the document photos are
  // gated: a soft selfie still matches, and its quality shows in the similarity.
  for (const kind of ['front', 'back'] as const) {
    const image = decoded[kind];
    if (image && assessSharpness(image).tooBlurry) {
      return {
        kind: 'refused',
        code: 'unreadable',
        image: kind,
        message: 'the photo is too blurry to be read; retake it in focus',
      };
    }
  }

  // Reading and faces are independent: run together, so one's model inference (on the ONNX
  // runtime's own thread) overlaps the other's JavaScript work on a 2-core machine.
  const documentImages = decoded.back ? [front, decoded.back] : [front];
  // The screen grid at the uploads' own resolution needs a full decode: started now, it runs on
  // libvips' threads while the reading step works.
  const nativeScreen = nativeScreenPeakRatios({
    front,
    back: decoded.back,
    originals: { front: input.images.front?.bytes, back: input.images.back?.bytes },
  });
  const [reading, faces] = await Promise.all([
    readDocument({ front, back: decoded.back }, { documentType: input.documentType }),
    analyzeFaces(documentImages, decoded.selfie ?? null),
  ]);
  const tamper = await detectTamper(
    { front, back: decoded.back },
    {
      layout: reading.document.layout,
      documentRegions: documentRegions(reading.textBoxes, front, decoded.back),
      // The read field values (MRZ lines, printed values without their labels) for the
      // text-field signs; whole OCR lines raise false alarms (docs/benchmarks.md).
      textBoxes: reading.fieldBoxes,
      lineBoxes: reading.textBoxes,
      nativeScreenRatios: await nativeScreen,
    },
  );

  const observations: Observations = {
    document: reading.document,
    mrz: reading.mrz,
    printed: reading.printed,
    portrait_found: faces.portrait_found,
    face: faces.face,
    tamper: tamper.signals,
    timings: roundTimings({
      normalize_ms: normalizeMs,
      ...reading.timings,
      ...faces.timings,
      ...tamper.timings,
    }),
  };
  return { kind: 'observations', observations: ObservationsSchema.parse(observations) };
}

/** Loads every model (OCR, face detection and embedding) so the first request pays nothing. */
export async function warmUpAnalyzer(): Promise<void> {
  await warmUpFaceModels();
  await warmUpReading();
}

/** The document's extent on each photo, from the text the reading step found there. */
function documentRegions(lines: TextBoxObservation[], front: NormalizedImage, back?: NormalizedImage) {
  const regions: Partial<Record<'front' | 'back', Extent>> = {};
  const frontExtent = textExtent(lines, 'front', front.width, front.height);
  if (frontExtent) regions.front = frontExtent;
  const backExtent = back ? textExtent(lines, 'back', back.width, back.height) : null;
  if (backExtent) regions.back = backExtent;
  return regions;
}

function roundTimings(timings: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Math.max(0, Math.round(v))]));
}
