import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectSelfieFaces, type FaceBox } from '../../src/faces/detect.ts';
import { toGrey } from '../../src/image/grey.ts';
import { type NormalizedImage, normalizeImage } from '../../src/image/normalize.ts';
import { packageFile } from '../../src/runtime/onnx.ts';
import { detectTamper } from '../../src/tamper/index.ts';
import {
  MIN_STREAKS,
  measurePortraitStreaks,
  STREAK_MIN_FACE_WIDTH,
} from '../../src/tamper/portrait-streaks.ts';
import { forwardMappedSwap, mirror } from '../support/forgeries.ts';
import { mapPixels } from './synthetic.ts';

/**
 * The streak cue of `portrait_edge`: a real photographed face (a picture shipped in
 * @vladmandic/human, enlarged to a document portrait's size and saved as JPEG) carries no long
 * straight line; the same face with thin lines drawn through it, as a photo fitted into a
 * genuine frame shows them, raises the sign, upright and turned by 90°. Lines that run through
 * the whole picture (a scanner's dirty bar) are not the portrait's.
 */

let photo: NormalizedImage;
let face: FaceBox;

beforeAll(async () => {
  // The streak cue alone: the swap classifier reads portraits cut from a document page, and this
  // picture is a face photo filling the frame (with the classifier on, it and the seam agree on
  // that picture's edges: portrait-agreement.ts).
  process.env.IDV_TAMPER_PORTRAIT_CNN = '0';
  const bytes = await readFile(packageFile('@vladmandic/human', 'assets/screenshot-faceid.jpg'));
  const enlarged = await sharp(bytes).resize({ width: 1600 }).jpeg({ quality: 85 }).toBuffer();
  photo = await normalizeImage(new Uint8Array(enlarged));
  face = (await detectSelfieFaces(photo)).reduce((a, b) => (b.w > a.w ? b : a));
});

/** Thin dark lines (1 px, 35 levels) down the face, within its height or through the whole picture. */
function drawLines(image: NormalizedImage, f: FaceBox, count: number, wholeHeight = false): NormalizedImage {
  const columns = Array.from({ length: count }, (_, k) => Math.round(f.x + f.w * (0.2 + (0.6 * k) / count)));
  const top = wholeHeight ? 0 : f.y + 0.15 * f.h;
  const bottom = wholeHeight ? image.height : f.y + 0.85 * f.h;
  return mapPixels(image, (x, y, px) =>
    columns.includes(x) && y >= top && y < bottom ? (px.map((v) => v - 35) as typeof px) : px,
  );
}

/** The picture turned by 90° clockwise, and the face box with it. */
function turn(image: NormalizedImage, f: FaceBox): [NormalizedImage, FaceBox] {
  const { width: w, height: h } = image;
  const rgb = new Uint8Array(image.rgb.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const to = (x * h + (h - 1 - y)) * 3;
      const from = (y * w + x) * 3;
      rgb.set(image.rgb.subarray(from, from + 3), to);
    }
  }
  const turned: FaceBox = {
    ...f,
    x: h - (f.y + f.h),
    y: f.x,
    w: f.h,
    h: f.w,
    landmarks: f.landmarks.map(([x, y]) => [h - 1 - y, x]),
  };
  return [{ ...image, rgb, width: h, height: w }, turned];
}

afterAll(() => {
  delete process.env.IDV_TAMPER_PORTRAIT_CNN;
});

const portraitEdge = async (image: NormalizedImage, portrait: FaceBox) =>
  (await detectTamper({ front: image }, { layout: 'td1', portrait })).signals.find(
    (s) => s.type === 'portrait_edge',
  );

describe('portrait_edge: streaks of a photo fitted into the frame', () => {
  it('finds no line through a photographed face, and no sign', async () => {
    expect(face.w).toBeGreaterThanOrEqual(STREAK_MIN_FACE_WIDTH);
    expect(measurePortraitStreaks(toGrey(photo), face)?.inside).toBe(0);
    expect(await portraitEdge(photo, face)).toBeUndefined();
  });

  it('counts thin straight lines drawn through the face and raises a high sign', async () => {
    const streaked = drawLines(photo, face, 8);
    // A line or two may cross the eyes or the nostrils, where its flanks differ.
    const m = measurePortraitStreaks(toGrey(streaked), face);
    expect(m?.inside).toBeGreaterThanOrEqual(6);
    expect(m?.beside).toBe(0);
    expect((await portraitEdge(streaked, face))?.severity).toBe('high');
  });

  it('flags another face enlarged into the frame by forward mapping (unwritten rows and columns)', async () => {
    // The donor: the same picture mirrored, so its face differs from the one it covers.
    const donor = mirror(photo);
    const donorFace = { ...face, x: photo.width - face.x - face.w };
    const swapped = forwardMappedSwap(photo, face, donor, donorFace, [1.15, 1.15]);
    const m = measurePortraitStreaks(toGrey(swapped), face);
    expect(m?.inside).toBeGreaterThanOrEqual(MIN_STREAKS);
    expect(await portraitEdge(swapped, face)).toBeDefined();
    // Shrunk instead of enlarged, every target pixel is written: no line, no sign.
    const shrunk = forwardMappedSwap(photo, face, donor, donorFace, [0.9, 0.9]);
    expect(measurePortraitStreaks(toGrey(shrunk), face)?.inside).toBeLessThan(MIN_STREAKS);
  });

  it('stays quiet below the minimum count', async () => {
    const few = drawLines(photo, face, MIN_STREAKS - 1);
    const count = measurePortraitStreaks(toGrey(few), face)?.inside ?? 0;
    expect(count).toBeGreaterThanOrEqual(MIN_STREAKS - 2);
    expect(count).toBeLessThan(MIN_STREAKS);
    expect(await portraitEdge(few, face)).toBeUndefined();
  });

  it('measures along the face on a document turned by 90°', async () => {
    const [turned, turnedFace] = turn(drawLines(photo, face, 8), face);
    expect(measurePortraitStreaks(toGrey(turned), turnedFace)?.inside).toBeGreaterThanOrEqual(6);
    const [clean, cleanFace] = turn(photo, face);
    expect(measurePortraitStreaks(toGrey(clean), cleanFace)?.inside).toBe(0);
  });

  it('leaves lines through the whole picture to others (a scanner bar is not the portrait)', async () => {
    // Light lines: beside this face the picture is a black screen background.
    const scanned = mapPixels(photo, (x, _y, px) =>
      x % 20 === 7 ? (px.map((v) => v + 40) as typeof px) : px,
    );
    const m = measurePortraitStreaks(toGrey(scanned), face);
    expect(m?.inside).toBeGreaterThanOrEqual(MIN_STREAKS);
    expect(m?.beside).toBeGreaterThanOrEqual(MIN_STREAKS);
    expect(await portraitEdge(scanned, face)).toBeUndefined();
  });

  it('does not judge a face too small to resolve 1-pixel lines', () => {
    const small = { ...face, w: STREAK_MIN_FACE_WIDTH - 1 };
    expect(measurePortraitStreaks(toGrey(photo), small)).toBeNull();
  });
});
