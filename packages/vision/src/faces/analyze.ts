import type { Observations } from '@idv/core';
import type { NormalizedImage } from '../image/normalize.ts';
import { calibrate, FUSED_CALIBRATION, FUSED_MODELS, fusedScore } from './calibration.ts';
import { portraitSoftening } from './descreen.ts';
import { detectDocumentFaces, detectSelfieFaces, type FaceBox, largestFace } from './detect.ts';
import { cosine, type EmbeddingModel, embedFace } from './embed.ts';

/**
 * Faces on a document and a selfie → the face observation the core turns into the
 * `face_match` check. The three failure causes stay distinguishable:
 *   portrait not found  → portrait_found false (faces_in_document 0)
 *   no face in selfie   → faces_in_selfie 0
 *   several faces       → faces_in_selfie > 1
 */

export interface FaceAnalysis {
  portrait_found: boolean;
  face: Observations['face'];
  timings: Record<string, number>;
}

/**
 * A document face counts when its box is at least 70 % as wide as the largest one. Passports
 * and ID cards print a small "ghost" copy of the portrait (typically 35–60 % of its width):
 * that is not a second person and must not be counted.
 */
export const DOCUMENT_FACE_MIN_RELATIVE_WIDTH = 0.7;
/**
 * A selfie face counts when it is at least 35 % as wide as the main face. A person standing
 * behind the user counts (the spec wants one face); the portrait on an ID card held next to the
 * face (~15–25 % of the face width in a "selfie with ID") and faces on posters far behind do not.
 */
export const SELFIE_FACE_MIN_RELATIVE_WIDTH = 0.35;

export function countSignificant(faces: FaceBox[], minRelativeWidth: number): number {
  const main = largestFace(faces);
  if (!main) return 0;
  return faces.filter((f) => f.w >= minRelativeWidth * main.w).length;
}

/**
 * One face's descriptors, one per fused model in FUSED_MODELS order, each `soften`ed as
 * embedFace says. Run one after the other: onnxruntime-web runs every session in one
 * single-threaded WebAssembly instance, so starting them together gains nothing.
 */
export async function fusedEmbeddings(
  image: NormalizedImage,
  face: FaceBox,
  soften = 0,
): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (const { model } of FUSED_MODELS)
    out.push(await embedFace(image, face, model as EmbeddingModel, { soften }));
  return out;
}

/** A document's portrait as the service embeds it: softened first when printed through a screen. */
export function portraitEmbeddings(image: NormalizedImage, portrait: FaceBox): Promise<Float32Array[]> {
  return fusedEmbeddings(image, portrait, portraitSoftening(image, portrait));
}

/**
 * The similarity on the spec's scale of two faces' fusedEmbeddings: each model's cosine, fused
 * (calibration.ts), then calibrated.
 */
export function fusedSimilarity(a: Float32Array[], b: Float32Array[]): number {
  return calibrate(fusedScore(a.map((e, i) => cosine(e, b[i]!))), FUSED_CALIBRATION);
}

export async function analyzeFaces(
  document: NormalizedImage[],
  selfie: NormalizedImage | null,
): Promise<FaceAnalysis> {
  const timings: Record<string, number> = {};
  const t0 = performance.now();
  // The portrait is on the front; other sides are searched only when the front has no face
  // (a card photographed back-first still gets its portrait found).
  let docFaces: FaceBox[] = [];
  let docImage: NormalizedImage | undefined;
  for (const image of document) {
    docFaces = await detectDocumentFaces(image);
    docImage = image;
    if (docFaces.length) break;
  }
  const t1 = performance.now();
  timings.face_detect_document_ms = Math.round(t1 - t0);
  const portrait = largestFace(docFaces);
  const facesInDocument = countSignificant(docFaces, DOCUMENT_FACE_MIN_RELATIVE_WIDTH);

  if (!selfie) {
    timings.face_ms = Math.round(performance.now() - t0);
    return { portrait_found: portrait !== undefined, face: null, timings };
  }

  const selfieFaces = await detectSelfieFaces(selfie);
  const t2 = performance.now();
  timings.face_detect_selfie_ms = Math.round(t2 - t1);
  const main = largestFace(selfieFaces);
  let similarity: number | null = null;
  if (portrait && docImage && main) {
    // The selfie is never softened, the portrait when printed through a screen (descreen.ts).
    const similar = fusedSimilarity(
      await portraitEmbeddings(docImage, portrait),
      await fusedEmbeddings(selfie, main),
    );
    similarity = Math.round(similar * 1000) / 1000;
  }
  const t3 = performance.now();
  timings.face_embed_ms = Math.round(t3 - t2);
  timings.face_ms = Math.round(t3 - t0);
  return {
    portrait_found: portrait !== undefined,
    face: {
      faces_in_document: facesInDocument,
      faces_in_selfie: countSignificant(selfieFaces, SELFIE_FACE_MIN_RELATIVE_WIDTH),
      similarity,
    },
    timings,
  };
}
