import { FUSED_MODELS, fusedScore } from '../faces/calibration.ts';
import { detectFacesOnce, type FaceBox, MIN_FACE_SCORE } from '../faces/detect.ts';
import { cosine, type EmbeddingModel, embedFace } from '../faces/embed.ts';
import { type GreyImage, luma } from '../image/grey.ts';
import type { NormalizedImage } from '../image/normalize.ts';
import { clampBox, cropRgb, rgbImage } from '../image/raster.ts';
import { ghostCandidates, portraitFrame } from './portrait-ghost-search.ts';
import type { Region } from './types.ts';

/**
 * `portrait_edge`, fourth cue: the ghost image does not show the portrait's person. Passports
 * and many cards print a small faded copy of the holder's photo beside it; a forger who swaps
 * the main portrait seldom redoes it (it is printed into the page's security background). The
 * ghost is found (a second, smaller face the document scan already found, else the search of
 * portrait-ghost-search.ts confirmed by the face detector up close), both faces are embedded
 * with the face-match models (grey on both sides, as face match does) and compared with the
 * fused score of faces/calibration.ts: a z-score on the strangers' distribution, 0 for a
 * typical stranger, ≈ 4.7 for a typical same-person document/selfie pair.
 */

export interface GhostComparison {
  ghost: FaceBox;
  /** Fused face score of the portrait against its ghost (faces/calibration.ts's `fusedScore`). */
  score: number;
}

/**
 * A second face counts as the ghost when it is 25–70 % as wide as the portrait: above 70 % it
 * is a second portrait (faces/analyze.ts's DOCUMENT_FACE_MIN_RELATIVE_WIDTH); ghosts print at
 * 35–60 % of it, and 25 % leaves room for a detector's loose box.
 */
const GHOST_MIN_RELATIVE_WIDTH = 0.25;
const GHOST_MAX_RELATIVE_WIDTH = 0.7;
/**
 * Smallest ghost (face box width, px) compared. Tuning: on the fixtures' tuning half a genuine
 * Finnish card's 42 px ghost (in a photocopy) scored 0.99 against its own portrait, a stranger's
 * score; the synthetic documents' genuine ghosts of 51–70 px scored 2.0–4.9. Below 50 px the
 * embeddings see too little of a faded face.
 */
export const GHOST_MIN_WIDTH = 50;
/** Smallest portrait compared: its ghost (at most 70 % of it) could not reach GHOST_MIN_WIDTH. */
export const GHOST_MIN_PORTRAIT_WIDTH = GHOST_MIN_WIDTH / 0.7;
/**
 * The ghost shows the portrait's person when their fused score reaches this. Tuning (synthetic
 * documents of the tuning layouts with a ghost, phone-captured, docs/decisions.md): genuine
 * ghosts 2.0–4.9; swapped portraits against the genuine ghost −2.1–1.6. On the face-match scale
 * a stranger averages 0 (σ 1.15): 1.5 lets ≈ 9 % of strangers pass, and stays 0.5 under the
 * weakest genuine ghost measured (faded, small, blurred by the capture).
 */
export const GHOST_MATCH_MIN = 1.5;
/**
 * At or below this score the sign is high (strength 0.5): a typical stranger's score plus a
 * quarter of their spread. Between it and GHOST_MATCH_MIN, medium (review): a weak genuine ghost
 * can land there.
 */
const GHOST_HIGH_AT = 0.25;

/** `portrait_edge` strength of a portrait/ghost score (null: the ghost shows the same person). */
export function ghostMismatchStrength(score: number): number | null {
  if (score >= GHOST_MATCH_MIN) return null;
  const s = (GHOST_MATCH_MIN - score) / (2 * (GHOST_MATCH_MIN - GHOST_HIGH_AT));
  return Math.round(Math.max(0.01, Math.min(1, s)) * 100) / 100;
}
/**
 * A search candidate is looked at up close only when it correlates this well with the shrunk
 * portrait. Low on purpose: a swapped portrait correlates with the genuine ghost at 0.5–0.6
 * only (tuning), and the detector, not this bar, decides whether a face is there.
 */
const MIN_CANDIDATE_NCC = 0.3;
/**
 * The crop given to the detector: the candidate and this many of its own sizes around it, so
 * that the face fills about a third of the detector's input (BlazeFace's good range).
 */
const CANDIDATE_CONTEXT = 1;

/**
 * The portrait's ghost on the page, compared with it (null: no ghost seen, or the portrait is
 * too small to look for one). `faces`: every face the document scan found on this image.
 */
export async function compareWithGhost(
  image: NormalizedImage,
  grey: GreyImage,
  portrait: FaceBox,
  faces: FaceBox[],
  within?: Region,
): Promise<GhostComparison | null> {
  if (portrait.w < GHOST_MIN_PORTRAIT_WIDTH) return null;
  const found =
    ghostFromScan(image, portrait, faces) ?? (await ghostFromSearch(image, grey, portrait, within));
  if (!found) return null;
  const cosines: number[] = [];
  for (const { model } of FUSED_MODELS) {
    const m = model as EmbeddingModel;
    cosines.push(cosine(await embedFace(image, portrait, m), await embedFace(found.image, found.face, m)));
  }
  const ghost = found.face;
  const back = found.offset;
  return {
    ghost: { ...ghost, x: ghost.x + back[0], y: ghost.y + back[1] },
    score: Math.round(fusedScore(cosines) * 100) / 100,
  };
}

interface FoundGhost {
  /** The image the ghost's box refers to (the page, or a stretched crop of it). */
  image: NormalizedImage;
  face: FaceBox;
  /** Where that image's origin lies on the page. */
  offset: [number, number];
}

function ghostFromScan(image: NormalizedImage, portrait: FaceBox, faces: FaceBox[]): FoundGhost | null {
  const ghost = faces
    .filter(
      (f) =>
        f !== portrait &&
        f.w >= Math.max(GHOST_MIN_WIDTH, GHOST_MIN_RELATIVE_WIDTH * portrait.w) &&
        f.w < GHOST_MAX_RELATIVE_WIDTH * portrait.w &&
        !overlap(f, portrait),
    )
    .sort((a, b) => b.score - a.score)[0];
  return ghost ? { image, face: ghost, offset: [0, 0] } : null;
}

async function ghostFromSearch(
  image: NormalizedImage,
  grey: GreyImage,
  portrait: FaceBox,
  within?: Region,
): Promise<FoundGhost | null> {
  for (const c of ghostCandidates(grey, portrait, within)) {
    if (c.ncc < MIN_CANDIDATE_NCC) break;
    const box = clampBox(
      {
        x: c.x - CANDIDATE_CONTEXT * c.w,
        y: c.y - CANDIDATE_CONTEXT * c.h,
        w: (1 + 2 * CANDIDATE_CONTEXT) * c.w,
        h: (1 + 2 * CANDIDATE_CONTEXT) * c.h,
      },
      image.width,
      image.height,
    );
    if (box.w < 8 || box.h < 8) continue;
    const crop = stretched(cropRgb(image, box.x, box.y, box.w, box.h), cropRgb(image, c.x, c.y, c.w, c.h));
    const faces = await detectFacesOnce(crop, MIN_FACE_SCORE);
    const cx = c.x + c.w / 2 - box.x;
    const cy = c.y + c.h / 2 - box.y;
    // The crop's margin may reach the portrait itself: a face there is the portrait, not a ghost.
    const frame = portraitFrame(portrait);
    const face = faces
      .filter(
        (f) =>
          !(
            f.x + box.x < frame.x1 &&
            f.x + f.w + box.x > frame.x0 &&
            f.y + box.y < frame.y1 &&
            f.y + f.h + box.y > frame.y0
          ) &&
          Math.abs(f.x + f.w / 2 - cx) < c.w &&
          Math.abs(f.y + f.h / 2 - cy) < c.h &&
          f.w >= Math.max(GHOST_MIN_WIDTH, GHOST_MIN_RELATIVE_WIDTH * portrait.w) &&
          f.w < GHOST_MAX_RELATIVE_WIDTH * portrait.w,
      )
      .sort((a, b) => b.score - a.score)[0];
    if (face) return { image: crop, face, offset: [box.x, box.y] };
  }
  return null;
}

/**
 * The crop's tones stretched so that the candidate's own 2nd–98th percentile of luma spans
 * 0–255: a ghost is printed at a fraction of the portrait's contrast, the detector and the
 * embeddings want a face at full contrast (the same linear change on every channel keeps the
 * colours' order). The percentiles are the candidate's, not the crop's: the crop's context may
 * hold dark text that would leave the ghost faded.
 */
function stretched(img: RgbLike, candidate: RgbLike): NormalizedImage {
  const n = candidate.width * candidate.height;
  const hist = new Uint32Array(256);
  for (let i = 0; i < n; i++) {
    const p = i * 3;
    hist[Math.round(luma(candidate.rgb[p]!, candidate.rgb[p + 1]!, candidate.rgb[p + 2]!))]!++;
  }
  const lo = percentile(hist, n, 0.02);
  const hi = Math.max(lo + 16, percentile(hist, n, 0.98));
  const k = 255 / (hi - lo);
  const rgb = new Uint8Array(img.rgb.length);
  for (let i = 0; i < rgb.length; i++)
    rgb[i] = Math.max(0, Math.min(255, Math.round((img.rgb[i]! - lo) * k)));
  return rgbImage(rgb, img.width, img.height);
}

type RgbLike = { rgb: Uint8Array; width: number; height: number };

function percentile(hist: Uint32Array, n: number, q: number): number {
  let acc = 0;
  for (let v = 0; v < 256; v++) {
    acc += hist[v]!;
    if (acc >= q * n) return v;
  }
  return 255;
}

function overlap(a: FaceBox, b: FaceBox): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}
