import { resizeArea } from '../image/affine.ts';
import type { NormalizedImage } from '../image/normalize.ts';
import { cropImage } from '../image/raster.ts';
import { FACE_MODELS, faceModelRunner } from './models.ts';

/**
 * Face detection with MediaPipe BlazeFace (back-camera variant, 256×256 input, 896 anchors,
 * 6 landmarks: right eye, left eye, nose tip, mouth, right ear, left ear — "right" is the
 * subject's right, i.e. the eye on the image's left).
 */

export type Point = [number, number];

export interface FaceBox {
  /** Box in source-image pixels. */
  x: number;
  y: number;
  w: number;
  h: number;
  score: number;
  /** Six landmarks in source-image pixels (see module comment for the order). */
  landmarks: Point[];
}

/** The widest of `faces` (a document's portrait, the selfie's person), undefined when there is none. */
export function largestFace(faces: FaceBox[]): FaceBox | undefined {
  return faces.reduce<FaceBox | undefined>((best, f) => (!best || f.w > best.w ? f : best), undefined);
}

const INPUT = 256;

/**
 * Minimum face score. BlazeFace scores real faces 0.8–1.0 and clutter below 0.5; MediaPipe's
 * own default is 0.5. We use 0.6 so that textured security print on documents does not
 * become a face, and still keep small grayscale portraits, which typically score 0.7–0.95.
 */
export const MIN_FACE_SCORE = 0.6;
/** Boxes overlapping more than this (intersection over union) are the same face. */
const NMS_IOU = 0.3;

/** Anchors of the 256 model: a 16×16 grid with 2 anchors per cell, then 8×8 with 6 (in input pixels). */
function makeAnchors(): Point[] {
  const anchors: Point[] = [];
  for (const [stride, perCell] of [
    [16, 2],
    [32, 6],
  ] as const) {
    const cells = INPUT / stride;
    for (let gy = 0; gy < cells; gy++) {
      for (let gx = 0; gx < cells; gx++) {
        for (let k = 0; k < perCell; k++) anchors.push([stride * (gx + 0.5), stride * (gy + 0.5)]);
      }
    }
  }
  return anchors;
}
const ANCHORS = makeAnchors();

function iou(a: FaceBox, b: FaceBox): number {
  const x0 = Math.max(a.x, b.x);
  const y0 = Math.max(a.y, b.y);
  const x1 = Math.min(a.x + a.w, b.x + b.w);
  const y1 = Math.min(a.y + a.h, b.y + b.h);
  const inter = Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
  return inter / (a.w * a.h + b.w * b.h - inter);
}

/** Greedy non-maximum suppression, best score first. */
export function nonMaxSuppression(boxes: FaceBox[], threshold = NMS_IOU): FaceBox[] {
  const sorted = [...boxes].sort((a, b) => b.score - a.score);
  const kept: FaceBox[] = [];
  for (const b of sorted) if (kept.every((k) => iou(k, b) < threshold)) kept.push(b);
  return kept;
}

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

/**
 * Runs BlazeFace on one image (letterboxed to a square so faces keep their shape) and
 * returns the faces above `minScore`, in the image's pixel coordinates. `margin` adds a
 * mid-grey border of that fraction of the long side around the image (see detectSelfieFaces).
 */
export async function detectFacesOnce(
  image: NormalizedImage,
  minScore = MIN_FACE_SCORE,
  margin = 0,
): Promise<FaceBox[]> {
  const runner = await faceModelRunner(FACE_MODELS.detector);
  const long = Math.max(image.width, image.height);
  // Letterbox: scale the long side plus margins to 256 and fill the rest with mid-grey (0 after
  // normalisation).
  const scale = INPUT / (long * (1 + 2 * margin));
  const w = Math.max(1, Math.round(image.width * scale));
  const h = Math.max(1, Math.round(image.height * scale));
  const offset = Math.round(margin * long * scale);
  const resized = resizeArea(image, w, h);
  const input = new Float32Array(INPUT * INPUT * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const s = (y * w + x) * 3;
      const d = ((y + offset) * INPUT + x + offset) * 3;
      for (let c = 0; c < 3; c++) input[d + c] = resized[s + c]! / 127.5 - 1;
    }
  }
  const out = await runner.runAll(input, [1, INPUT, INPUT, 3]);
  // Outputs: scores and regressors for the 16×16 (512 anchors) and 8×8 (384 anchors) grids.
  const byShape = (n: number, k: number) =>
    Object.values(out).find((t) => t.dims[1] === n && t.dims[2] === k)!.data as Float32Array;
  const scores = [byShape(512, 1), byShape(384, 1)];
  const regs = [byShape(512, 16), byShape(384, 16)];
  const sx = image.width / w;
  const sy = image.height / h;
  const found: FaceBox[] = [];
  let anchorIndex = 0;
  for (let g = 0; g < 2; g++) {
    const sc = scores[g]!;
    const rg = regs[g]!;
    for (let i = 0; i < sc.length; i++, anchorIndex++) {
      const score = sigmoid(sc[i]!);
      if (score < minScore) continue;
      const [ax, ay] = ANCHORS[anchorIndex]!;
      const r = rg.subarray(i * 16, i * 16 + 16);
      const cx = (r[0]! + ax - offset) * sx;
      const cy = (r[1]! + ay - offset) * sy;
      const bw = r[2]! * sx;
      const bh = r[3]! * sy;
      const landmarks: Point[] = [];
      for (let k = 0; k < 6; k++) {
        landmarks.push([(r[4 + 2 * k]! + ax - offset) * sx, (r[5 + 2 * k]! + ay - offset) * sy]);
      }
      found.push({ x: cx - bw / 2, y: cy - bh / 2, w: bw, h: bh, score, landmarks });
    }
  }
  return nonMaxSuppression(found);
}

/**
 * Close-ups. The back-camera BlazeFace is made for faces that fill part of the frame: on a
 * close-up whose face fills it (a tight crop, a phone held near), it still finds the face but
 * misplaces its landmarks, by up to an eye distance on the fixture set's 150 px face crops, and
 * both descriptors are aligned on those eyes. A face wider than CLOSE_UP_FACE_FRACTION of the
 * picture's long side is therefore detected again with a grey margin of CLOSE_UP_MARGIN of the
 * long side on each side, which brings it back to ~40 % of the detector's input (measured: the
 * eyes then land on the pupils). The face-match figures stay within one pair for a fraction of 0.3 to
 * 0.6 and a margin of 0.5 to 0.75 (docs/benchmarks.md).
 */
const CLOSE_UP_FACE_FRACTION = 0.5;
const CLOSE_UP_MARGIN = 0.5;

/**
 * Selfie: one pass on the whole picture (a selfie face fills a good part of the frame), and a
 * second one with a margin for a close-up (above). A weaker box lying mostly inside the face's
 * own box is part of that face found again (half a face on a tight crop), not a second person:
 * another person's face is beside or behind, not within.
 */
export async function detectSelfieFaces(image: NormalizedImage): Promise<FaceBox[]> {
  const faces = dropNestedFaces(await detectFacesOnce(image));
  if (!faces.some((f) => Math.max(f.w, f.h) > CLOSE_UP_FACE_FRACTION * Math.max(image.width, image.height))) {
    return faces;
  }
  const reframed = dropNestedFaces(await detectFacesOnce(image, MIN_FACE_SCORE, CLOSE_UP_MARGIN));
  // The margin pass sees the picture smaller: a face only the first pass found (a small second
  // person) is kept, so the count of people never drops. "Only" means its centre lies outside
  // every face of the margin pass: the first pass's box of the close-up face itself may be
  // shifted (that is the point of the second pass) and must not count as another person.
  const missed = faces.filter((f) => reframed.every((r) => !containsCentreOf(r, f)));
  return [...reframed, ...missed];
}

function containsCentreOf(outer: FaceBox, inner: FaceBox): boolean {
  const cx = inner.x + inner.w / 2;
  const cy = inner.y + inner.h / 2;
  return cx >= outer.x && cx <= outer.x + outer.w && cy >= outer.y && cy <= outer.y + outer.h;
}

/**
 * Document: the portrait can be small (a passport portrait is ~1/4 of the page width, and the
 * page may fill only part of the photo), below BlazeFace's reach at 256 px for the whole
 * image. So, unless the whole-image pass already found a confident face, we also scan a 2×2
 * grid of overlapping tiles (each 60 % of the image side) — 5 detector runs — and merge the boxes.
 */
export function detectDocumentFaces(image: NormalizedImage): Promise<FaceBox[]> {
  // The face step and the tamper step both need the portrait of the same image: detect once.
  let pending = documentFaceCache.get(image);
  if (!pending) {
    pending = scanDocumentFaces(image);
    documentFaceCache.set(image, pending);
    pending.catch(() => documentFaceCache.delete(image));
  }
  return pending;
}

const documentFaceCache = new WeakMap<NormalizedImage, Promise<FaceBox[]>>();

/**
 * A whole-image detection this confident is the portrait itself (BlazeFace scores real faces
 * 0.9+ once they are big enough for the whole-image pass): the tiles would only find it again.
 */
const CONFIDENT_WHOLE_IMAGE_SCORE = 0.9;

async function scanDocumentFaces(image: NormalizedImage): Promise<FaceBox[]> {
  const all = await detectFacesOnce(image);
  // The 4 tile passes cost ~80 ms; they are for portraits too small for the whole-image pass.
  if (all.some((f) => f.score >= CONFIDENT_WHOLE_IMAGE_SCORE)) return mergeTileDetections(all);
  const tw = Math.round(image.width * 0.6);
  const th = Math.round(image.height * 0.6);
  for (const fy of [0, 1]) {
    for (const fx of [0, 1]) {
      const x = fx === 0 ? 0 : image.width - tw;
      const y = fy === 0 ? 0 : image.height - th;
      const tile = cropImage(image, { x, y, w: tw, h: th });
      for (const f of await detectFacesOnce(tile)) {
        all.push({
          ...f,
          x: f.x + x,
          y: f.y + y,
          landmarks: f.landmarks.map(([px, py]) => [px + x, py + y] as Point),
        });
      }
    }
  }
  return mergeTileDetections(all);
}

/**
 * Merges the boxes of the whole-image pass and of the tiles. A face cut by a tile border is
 * found smaller in that tile: after suppression, a kept box lying inside a bigger kept one is
 * dropped. Only boxes that survived suppression may absorb another: comparing with every raw
 * box once let a suppressed duplicate remove the very face that had suppressed it, so a clearly
 * detected portrait (score 0.95) vanished from the result.
 */
export function mergeTileDetections(all: FaceBox[]): FaceBox[] {
  return dropNestedFaces(nonMaxSuppression(all));
}

/** Drops the boxes lying mostly inside a bigger, about as confident box of the same list. */
export function dropNestedFaces(kept: FaceBox[]): FaceBox[] {
  return kept.filter((f) => !isInsideBigger(f, kept));
}

/**
 * A box mostly (70 %) contained in a larger box scoring at most 0.2 less is a partial duplicate:
 * a face cut by a tile edge, or half a face found again on a tight crop.
 */
function isInsideBigger(f: FaceBox, others: FaceBox[]): boolean {
  return others.some((o) => {
    if (o === f || o.w * o.h <= f.w * f.h * 1.2) return false;
    const x0 = Math.max(f.x, o.x);
    const y0 = Math.max(f.y, o.y);
    const x1 = Math.min(f.x + f.w, o.x + o.w);
    const y1 = Math.min(f.y + f.h, o.y + o.h);
    const inter = Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
    return inter > 0.7 * f.w * f.h && o.score >= f.score - 0.2;
  });
}
