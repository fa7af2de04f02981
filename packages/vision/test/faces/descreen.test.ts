import { describe, expect, it } from 'vitest';
import { analyzeFaces } from '../../src/faces/analyze.ts';
import { calibrate, FUSED_CALIBRATION, FUSED_MODELS, fusedScore } from '../../src/faces/calibration.ts';
import { DESCREEN_LEVELS, portraitSoftening, SCREEN_TEXTURE_BAR } from '../../src/faces/descreen.ts';
import { detectDocumentFaces, detectSelfieFaces, type FaceBox } from '../../src/faces/detect.ts';
import { cosine, type EmbeddingModel, embedFace } from '../../src/faces/embed.ts';
import { fineTexture, softenCrop } from '../../src/faces/soften.ts';
import { luma } from '../../src/image/grey.ts';
import type { NormalizedImage } from '../../src/image/normalize.ts';
import { rgbImage } from '../../src/image/raster.ts';
import { colourDocument } from '../tamper/synthetic.ts';
import { manPortrait, manSelfie, paste, resized, womanSelfie } from './images.ts';

/**
 * A document portrait printed through a line screen: read as screened (descreen.ts) and
 * softened before it is embedded, which brings its match with the holder's selfie back; a plain
 * portrait is left as it is.
 */

/**
 * `image` printed through a line screen at 30°, a line every `period` px as wide as the ink to
 * put down (its edge softened over about a pixel), mixed in at `amount`: a screened print.
 */
function lineScreened(image: NormalizedImage, period: number, amount: number): NormalizedImage {
  const rgb = new Uint8Array(image.rgb.length);
  const [c, s] = [Math.cos(Math.PI / 6), Math.sin(Math.PI / 6)];
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const o = (y * image.width + x) * 3;
      const l = Math.max(1, luma(image.rgb[o]!, image.rgb[o + 1]!, image.rgb[o + 2]!));
      const level = 0.5 + 0.5 * Math.cos((2 * Math.PI * (c * x + s * y)) / period);
      const covered = Math.min(1, Math.max(0, (1 - l / 255 - level) * 3 + 0.5));
      const k = 1 + amount * ((255 * (1 - covered)) / l - 1);
      for (let ch = 0; ch < 3; ch++) rgb[o + ch] = Math.min(255, Math.round(image.rgb[o + ch]! * k));
    }
  }
  return rgbImage(rgb, image.width, image.height);
}

/** A card with the man's portrait (a ~145 px face), plain or through a `period` px line screen. */
async function cardWith(period?: number): Promise<NormalizedImage> {
  const portrait = resized(await manPortrait(), 260, 312);
  return paste(
    colourDocument(1400, 900, 5),
    period ? lineScreened(portrait, period, 0.8) : portrait,
    90,
    250,
  );
}

async function portraitOf(image: NormalizedImage): Promise<FaceBox> {
  const faces = await detectDocumentFaces(image);
  return faces.reduce((b, f) => (f.w > b.w ? f : b));
}

/** The service's similarity of the portrait and the selfie with the portrait softened by `soften`. */
async function similarityWith(
  doc: NormalizedImage,
  selfie: NormalizedImage,
  soften: number,
): Promise<number> {
  const portrait = await portraitOf(doc);
  const face = (await detectSelfieFaces(selfie)).reduce((b, f) => (f.w > b.w ? f : b));
  const cosines: number[] = [];
  for (const { model } of FUSED_MODELS) {
    const m = model as EmbeddingModel;
    cosines.push(cosine(await embedFace(doc, portrait, m, { soften }), await embedFace(selfie, face, m)));
  }
  return calibrate(fusedScore(cosines), FUSED_CALIBRATION);
}

describe('softenCrop and fineTexture', () => {
  const size = 64;
  const crop = (f: (x: number, y: number) => number) => {
    const out = new Float32Array(size * size * 3);
    for (let y = 0; y < size; y++)
      for (let x = 0; x < size; x++) out.fill(f(x, y), (y * size + x) * 3, (y * size + x) * 3 + 3);
    return out;
  };
  const ramp = (x: number, y: number) => 60 + 2 * x + y;
  const lines = (x: number, y: number) => ramp(x, y) + (x % 4 < 2 ? 40 : -40);
  const centre = (32 * size + 32) * 3;

  it('keeps a smooth crop and takes a fine screen out of it', () => {
    expect(Math.abs(softenCrop(crop(ramp), size, 1.5)[centre]! - ramp(32, 32))).toBeLessThan(0.5);
    expect(Math.abs(softenCrop(crop(lines), size, 1.5)[centre]! - ramp(32, 32))).toBeLessThan(4);
    expect(softenCrop(crop(lines), size, 0)[centre]).toBe(lines(32, 32));
  });

  it('reads texture everywhere as a screen, a smooth crop as none', () => {
    expect(fineTexture(crop(lines), size, 1.5)).toBeGreaterThan(SCREEN_TEXTURE_BAR);
    expect(fineTexture(crop(ramp), size, 1.5)).toBeLessThan(0.01);
  });
});

describe('a screened document portrait', () => {
  it('is softened as much as its screen needs; a plain one is not', async () => {
    const plain = await cardWith();
    const fine = await cardWith(3);
    const coarse = await cardWith(5);
    expect(portraitSoftening(plain, await portraitOf(plain))).toBe(0);
    expect(portraitSoftening(fine, await portraitOf(fine))).toBe(DESCREEN_LEVELS[0]);
    expect(portraitSoftening(coarse, await portraitOf(coarse))).toBeGreaterThan(DESCREEN_LEVELS[0]);
  });

  it('matches its holder once softened, and strangers still do not', async () => {
    const screened = await cardWith(4);
    const selfie = await manSelfie();
    // Unsoftened, the screen hides the holder: under the warn threshold.
    expect(await similarityWith(screened, selfie, 0)).toBeLessThan(0.3);
    const result = await analyzeFaces([screened], selfie);
    expect(result.face!.similarity!).toBeGreaterThanOrEqual(0.45);
    const stranger = await analyzeFaces([screened], await womanSelfie());
    expect(stranger.face!.similarity!).toBeLessThan(0.3);
  });
});
