import type { NormalizedImage } from '../image/normalize.ts';
import type { FaceBox } from './detect.ts';
import { alignedCrop, FRAMING, INPUT_SIZE } from './embed.ts';
import { FACE_MODELS } from './models.ts';
import { fineTexture, softenCrop } from './soften.ts';

/**
 * Whether, and how much, a document's portrait is softened before it is embedded (embedFace's
 * `soften`, in eye distances). The selfie never is.
 *
 * Many documents print the portrait through a screen (halftone dots, lines, engraved lines), and
 * the embedding models read the screen as part of the face. Measured on the fixtures' faces
 * printed on synthetic documents and photographed (scripts/eval/faces-on-documents.ts; figures in
 * docs/benchmarks.md, "Document portrait ↔ selfie"; the tuning half, 25 photos, 8 documents each,
 * pages at full size): genuine pairs reaching 0.45 were 25 of 66 on screened prints against 241
 * of 317 on plain ones.
 * Every portrait softened by 0.02 eye distances: the screened rose to 40 of 66, but plain prints
 * fell to 223 of 317 (the blur takes detail from a photo that had no screen). So only a portrait
 * that reads as screened is softened, and only as much as takes its screen out.
 */

/**
 * The fine-texture measure's softening (fineTexture's `sigma`, eye distances): a screen's lines
 * lie 0.03–0.15 eye distances apart, a face's own detail is coarser.
 */
export const TEXTURE_SOFTEN = 0.02;

/**
 * The fine-texture bar. On the tuning side, unscreened printed portraits (plain, tinted, grey,
 * patterned; 173) measure 0.040 at most, the face photos themselves 0.047 at most, screened prints
 * 0.047 to 0.78. The bar sits above every unscreened face with a margin: a weak screen under it
 * costs little, while a photo softened for nothing loses detail.
 */
export const SCREEN_TEXTURE_BAR = 0.05;

/**
 * Softenings tried in turn on a screened portrait, eye distances: the first after which it no
 * longer reads as screened is used (a coarse screen, or a small face, needs more). Tried on the
 * tuning side (pages drawn at 45–100 % of their size): every screened portrait softened by 0.02,
 * 35 of 70 genuine pairs reached 0.45 (none softened: 32); in turn 0.02 then 0.03, 37, and
 * adding 0.045 or 0.065 changed nothing there. 0.045 is kept for screens coarser than the
 * benchmark's: a 5 px line screen on a 145 px face (the test's) needs 0.03, on a 95 px face 0.045.
 * Holdout (a fresh draw of the holdout persons' documents): 290 → 292 of 320 genuine pairs at
 * 0.45, the same with 0.02 alone; strangers under 0.30 2,416 of 2,416 either way.
 */
export const DESCREEN_LEVELS = [0.02, 0.03, 0.045] as const;

/** The softening for this portrait: 0 when it does not read as screened (see DESCREEN_LEVELS). */
export function portraitSoftening(image: NormalizedImage, face: FaceBox): number {
  const model = FACE_MODELS.faceres;
  const size = INPUT_SIZE[model];
  const eyes = size / FRAMING[model].sideOverEyes;
  const crop = alignedCrop(image, face, model);
  const screened = (pixels: Float32Array) =>
    fineTexture(pixels, size, TEXTURE_SOFTEN * eyes) > SCREEN_TEXTURE_BAR;
  if (!screened(crop)) return 0;
  for (const level of DESCREEN_LEVELS) if (!screened(softenCrop(crop, size, level * eyes))) return level;
  return DESCREEN_LEVELS[DESCREEN_LEVELS.length - 1]!;
}
