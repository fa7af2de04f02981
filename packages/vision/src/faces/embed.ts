import { type Affine, warpAffine } from '../image/affine.ts';
import { luma } from '../image/grey.ts';
import type { NormalizedImage } from '../image/normalize.ts';
import type { FaceBox } from './detect.ts';
import { FACE_MODELS, faceModelRunner } from './models.ts';
import { softenCrop } from './soften.ts';

/**
 * Face embeddings. The face is aligned on its eyes (rotation so the eyes are level, scale from
 * the eye distance) before the embedding model sees it, so head tilt and framing differences
 * between a selfie and a document portrait do not move the descriptor.
 */

export type EmbeddingModel =
  | typeof FACE_MODELS.faceres
  | typeof FACE_MODELS.mobileface
  | typeof FACE_MODELS.resnet;

export interface Framing {
  /** Crop side as a multiple of the eye distance. */
  sideOverEyes: number;
  /** Downward shift of the crop centre from the eye midpoint, in eye distances. */
  centreBelowEyes: number;
}

/**
 * Framing per model, chosen by measurement on the fixture pairs (see docs/face-calibration.md):
 * FaceRes was trained on loose VGGFace2-style crops (whole head, some background); MobileFace on
 * tight ArcFace-style 112×112 crops (eyes at ~46 % of the height, eye distance ~1/3 of the width);
 * the face-api ResNet on dlib's aligned 150×150 face chips.
 */
export const FRAMING: Record<EmbeddingModel, Framing> = {
  faceres: { sideOverEyes: 3.6, centreBelowEyes: 0.55 },
  mobileface: { sideOverEyes: 2.9, centreBelowEyes: 0.25 },
  // dlib's face chip (150×150, padding 0.25 around its mean face shape): eye centres 0.523 shape
  // units apart in a 1.5-unit chip, 0.284 units above the chip centre. Measured: moving either
  // value by 10-15 % costs 5-20 pairs of TAR@FAR0.1 %, so the model wants exactly its own chip.
  'faceapi-resnet': { sideOverEyes: 2.87, centreBelowEyes: 0.54 },
};

export const INPUT_SIZE: Record<EmbeddingModel, number> = {
  faceres: 224,
  mobileface: 112,
  'faceapi-resnet': 150,
};

/** The affine map from crop pixels to image pixels that levels the eyes and frames the face. */
export function alignmentMap(face: FaceBox, size: number, framing: Framing): Affine {
  // Landmark 0 is the subject's right eye (image left), 1 the left eye.
  const [rx, ry] = face.landmarks[0]!;
  const [lx, ly] = face.landmarks[1]!;
  const dx = lx - rx;
  const dy = ly - ry;
  const eyeDist = Math.max(1e-3, Math.hypot(dx, dy));
  const cos = dx / eyeDist;
  const sin = dy / eyeDist;
  const side = framing.sideOverEyes * eyeDist;
  const k = side / size; // source pixels per crop pixel
  // Crop centre: eye midpoint moved "down" in the face's own frame (perpendicular to the eye line).
  const cx = (rx + lx) / 2 - sin * framing.centreBelowEyes * eyeDist;
  const cy = (ry + ly) / 2 + cos * framing.centreBelowEyes * eyeDist;
  // crop (u, v) → image: centre + R · (u - size/2, v - size/2) · k
  const h = (size - 1) / 2;
  return {
    a: cos * k,
    b: -sin * k,
    c: cx - (cos * h - sin * h) * k,
    d: sin * k,
    e: cos * k,
    f: cy - (sin * h + cos * h) * k,
  };
}

/** Aligned face crop (HWC, 0..255) ready for the model. */
export function alignedCrop(image: NormalizedImage, face: FaceBox, model: EmbeddingModel): Float32Array {
  const size = INPUT_SIZE[model];
  return warpAffine(image, alignmentMap(face, size, FRAMING[model]), size, size);
}

/**
 * Grayscale on both sides: document portraits are often grey (ghost printing, photocopies,
 * laser engraving) while selfies are colour. Comparing grey with grey removes a difference
 * that has nothing to do with identity. (Measured: it also helps on colour-colour pairs.)
 */
function toGrey(pixels: Float32Array): Float32Array {
  for (let i = 0; i < pixels.length; i += 3) {
    const g = luma(pixels[i]!, pixels[i + 1]!, pixels[i + 2]!);
    pixels[i] = g;
    pixels[i + 1] = g;
    pixels[i + 2] = g;
  }
  return pixels;
}

/**
 * Models whose descriptor is the mean of the face's and its mirror image's (test-time flip).
 * A face and its mirror are the same person; averaging both views cancels part of what pose and
 * one-sided lighting do to one view. Measured on the fixture faces (docs/benchmarks.md): for the
 * ResNet, genuine pairs below pass 4 → 2 and impostors at warn or above 10 → 9 in the fusion,
 * TAR unchanged, for one more ResNet image per face (run as a batch of two, ≈ +12 ms per face);
 * for FaceRes the same gain costs ≈ 45 ms per face and lowers TAR at FAR 0.1 %, so it is off.
 */
export const FLIP_AVERAGED: Record<EmbeddingModel, boolean> = {
  faceres: false,
  mobileface: false,
  'faceapi-resnet': true,
};

/** The crop mirrored left-right (HWC). */
function mirrored(pixels: Float32Array, size: number): Float32Array {
  const out = new Float32Array(pixels.length);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const from = (y * size + x) * 3;
      const to = (y * size + (size - 1 - x)) * 3;
      out[to] = pixels[from]!;
      out[to + 1] = pixels[from + 1]!;
      out[to + 2] = pixels[from + 2]!;
    }
  }
  return out;
}

/** L2-normalised embedding of one detected face. */
export async function embedFace(
  image: NormalizedImage,
  face: FaceBox,
  model: EmbeddingModel = FACE_MODELS.faceres,
  options: { grey?: boolean; flip?: boolean; soften?: number } = {},
): Promise<Float32Array> {
  const runner = await faceModelRunner(model);
  const size = INPUT_SIZE[model];
  // `soften` is in eye distances (the crop's own scale), so both models blur the same face alike.
  const sigma = ((options.soften ?? 0) * size) / FRAMING[model].sideOverEyes;
  let pixels = softenCrop(alignedCrop(image, face, model), size, sigma);
  if (options.grey ?? true) pixels = toGrey(pixels);
  const views = (options.flip ?? FLIP_AVERAGED[model]) ? [pixels, mirrored(pixels, size)] : [pixels];
  const batch = new Float32Array(views.length * pixels.length);
  for (const [i, v] of views.entries()) batch.set(v, i * pixels.length);
  const out = await runner.runAll(batch, [views.length, size, size, 3]);
  const data = model === FACE_MODELS.faceres ? out['global_pooling/Mean']!.data : Object.values(out)[0]!.data;
  // One descriptor per view, each normalised, then their mean normalised again.
  const dim = data.length / views.length;
  const sum = new Float32Array(dim);
  for (let i = 0; i < views.length; i++) {
    const view = l2normalize(data.slice(i * dim, (i + 1) * dim));
    for (let k = 0; k < dim; k++) sum[k]! += view[k]!;
  }
  return l2normalize(sum);
}

export function l2normalize(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  const inv = n > 0 ? 1 / Math.sqrt(n) : 0;
  return v.map((x) => x * inv);
}

/** Cosine similarity of two L2-normalised vectors (the raw score that calibration maps). */
export function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
