import { describe, expect, it } from 'vitest';
import { analyzeFaces, countSignificant, SELFIE_FACE_MIN_RELATIVE_WIDTH } from '../../src/faces/analyze.ts';
import {
  detectDocumentFaces,
  detectFacesOnce,
  detectSelfieFaces,
  dropNestedFaces,
  type FaceBox,
  mergeTileDetections,
  type Point,
} from '../../src/faces/detect.ts';
import { cropImage } from '../../src/image/raster.ts';
import { colourDocument } from '../tamper/synthetic.ts';
import { canvas, manPortrait, manSelfie, paste, resized, womanSelfie } from './images.ts';

/**
 * Face detection, counting and matching on real faces (from an npm package) placed in
 * synthetic scenes: a document with a small grey portrait, a selfie with two people, an
 * empty picture.
 */

/** A 1200×800 synthetic card with the man's portrait, grey and small (~70 px face). */
async function documentWithPortrait(): Promise<ReturnType<typeof colourDocument>> {
  const portrait = resized(await manPortrait(), 110, 132);
  return paste(colourDocument(1200, 800, 9), portrait, 90, 250, true);
}

describe('face detection', () => {
  it('finds the one face of a selfie, with the eyes inside the box and level', async () => {
    const faces = await detectSelfieFaces(await manSelfie());
    expect(faces).toHaveLength(1);
    const [f] = faces;
    const [right, left] = f!.landmarks;
    for (const [x, y] of [right!, left!]) {
      expect(x).toBeGreaterThan(f!.x);
      expect(x).toBeLessThan(f!.x + f!.w);
      expect(y).toBeGreaterThan(f!.y);
      expect(y).toBeLessThan(f!.y + f!.h);
    }
    // Landmark 0 is the subject's right eye, on the image's left.
    expect(right![0]).toBeLessThan(left![0]);
    expect(Math.abs(right![1] - left![1])).toBeLessThan(0.15 * f!.w);
  });

  it('places the eyes right on a close-up whose face fills the picture (second pass with a margin)', async () => {
    const selfie = await manSelfie();
    const [whole] = await detectSelfieFaces(selfie);
    const [right, left] = whole!.landmarks as [Point, Point];
    const eyeDistance = Math.hypot(left[0] - right[0], left[1] - right[1]);
    for (const scale of [1.0, 1.1]) {
      // A crop no bigger than the face box: the face fills the frame.
      const side = whole!.w * scale;
      const x0 = Math.floor(whole!.x + whole!.w / 2 - side / 2);
      const y0 = Math.floor(whole!.y + whole!.h / 2 - side / 2);
      const closeUp = cropImage(selfie, { x: x0, y: y0, w: side, h: side });
      const eyeError = (faces: FaceBox[]) => {
        const [r, l] = faces[0]!.landmarks as [Point, Point];
        const off = (p: Point, q: Point) => Math.hypot(p[0] + x0 - q[0], p[1] + y0 - q[1]);
        return Math.max(off(r, right), off(l, left)) / eyeDistance;
      };
      const faces = await detectSelfieFaces(closeUp);
      expect(faces).toHaveLength(1);
      expect(eyeError(faces)).toBeLessThan(0.15);
      // Without the margin the detector misplaces them (what the second pass is for): measured
      // 0.61 eye distances off on the tightest crop, against 0.08 with it.
      if (scale === 1.0) expect(eyeError(await detectFacesOnce(closeUp))).toBeGreaterThan(0.3);
    }
  });

  it('still counts a smaller second person beside a close-up face', async () => {
    // The man's face is over half the picture's width (a close-up), the woman's ~40 % of his.
    const man = resized(cropImage(await manSelfie(), { x: 30, y: 160, w: 110, h: 130 }), 372, 440);
    const woman = resized(cropImage(await womanSelfie(), { x: 32, y: 18, w: 62, h: 70 }), 165, 186);
    const picture = paste(paste(canvas(500, 450), man, 0, 5), woman, 335, 90);
    const faces = await detectSelfieFaces(picture);
    expect(Math.max(...faces.map((f) => f.w))).toBeGreaterThan(0.5 * 500);
    expect(countSignificant(faces, SELFIE_FACE_MIN_RELATIVE_WIDTH)).toBe(2);
  });

  it('finds no face on a document without a portrait', async () => {
    expect(await detectSelfieFaces(colourDocument())).toHaveLength(0);
    expect(await detectDocumentFaces(colourDocument(1200, 800, 9))).toHaveLength(0);
  });

  it('finds a large portrait that the tiles also see (no loss when merging passes)', async () => {
    const portrait = resized(await manPortrait(), 300, 360);
    const faces = await detectDocumentFaces(paste(colourDocument(1340, 956, 9), portrait, 150, 330, true));
    expect(faces).toHaveLength(1);
    expect(faces[0]!.w).toBeGreaterThan(100);
  });

  it('finds a small grey portrait on a large document (tiles)', async () => {
    const faces = await detectDocumentFaces(await documentWithPortrait());
    expect(faces).toHaveLength(1);
    expect(faces[0]!.x).toBeGreaterThan(80);
    expect(faces[0]!.x).toBeLessThan(220);
  });
});

describe('merging whole-image and tile detections', () => {
  const box = (x: number, y: number, w: number, score: number): FaceBox => ({
    x,
    y,
    w,
    h: w,
    score,
    landmarks: [],
  });

  it('keeps a face whose bigger, weaker duplicate from a tile was suppressed', () => {
    // The whole-image pass finds the face sharply (0.95); a tile sees it again as a larger,
    // weaker box around it. Suppression keeps the sharp box; it must not then be dropped as
    // "inside" the box it suppressed.
    const sharp = box(172, 369, 190, 0.95);
    const loose = box(150, 350, 240, 0.8);
    expect(mergeTileDetections([sharp, loose])).toEqual([sharp]);
  });

  it('drops a partial face cut by a tile border when the whole face was kept', () => {
    const whole = box(100, 100, 200, 0.9);
    const cut = box(110, 190, 90, 0.85); // mostly inside, IoU with `whole` below the NMS overlap
    expect(mergeTileDetections([whole, cut])).toEqual([whole]);
  });

  it('keeps two separate faces', () => {
    const a = box(0, 0, 100, 0.9);
    const b = box(400, 0, 100, 0.9);
    expect(mergeTileDetections([a, b])).toHaveLength(2);
  });

  it('does not count half a face found again inside the face as a second person (selfies)', () => {
    // A tight face crop: the face (0.94) and, inside its box, its left half (0.61).
    const face = box(-19, -19, 169, 0.94);
    const half = box(-1, 6, 92, 0.61);
    expect(dropNestedFaces([face, half])).toEqual([face]);
    // A second person beside, even overlapping a little, stays.
    const other = box(120, 10, 120, 0.9);
    expect(dropNestedFaces([face, other])).toHaveLength(2);
  });
});

describe('analyzeFaces', () => {
  it('reports no face block without a selfie, but still whether the portrait was found', async () => {
    const withPortrait = await analyzeFaces([await documentWithPortrait()], null);
    expect(withPortrait.portrait_found).toBe(true);
    expect(withPortrait.face).toBeNull();
    const without = await analyzeFaces([colourDocument(1200, 800, 9)], null);
    expect(without.portrait_found).toBe(false);
  });

  it('matches the same person across a grey document portrait and a colour selfie', async () => {
    const result = await analyzeFaces([await documentWithPortrait()], await manSelfie());
    expect(result.portrait_found).toBe(true);
    expect(result.face).toMatchObject({ faces_in_document: 1, faces_in_selfie: 1 });
    expect(result.face!.similarity!).toBeGreaterThanOrEqual(0.45);
    for (const key of ['face_detect_document_ms', 'face_detect_selfie_ms', 'face_embed_ms', 'face_ms']) {
      expect(Number.isInteger(result.timings[key])).toBe(true);
    }
  });

  it('keeps a different person below the warn threshold', async () => {
    const result = await analyzeFaces([await documentWithPortrait()], await womanSelfie());
    expect(result.face!.faces_in_selfie).toBe(1);
    expect(result.face!.similarity!).toBeLessThan(0.3);
  });

  it('tells "portrait not found", "no face in selfie" and "several faces" apart', async () => {
    const doc = await documentWithPortrait();
    const noPortrait = await analyzeFaces([colourDocument(1200, 800, 9)], await manSelfie());
    expect(noPortrait.portrait_found).toBe(false);
    expect(noPortrait.face).toEqual({ faces_in_document: 0, faces_in_selfie: 1, similarity: null });

    const emptySelfie = await analyzeFaces([doc], canvas(640, 480));
    expect(emptySelfie.portrait_found).toBe(true);
    expect(emptySelfie.face).toEqual({ faces_in_document: 1, faces_in_selfie: 0, similarity: null });

    const man = resized(await manPortrait(), 200, 240);
    const woman = resized(await womanSelfie(), 240, 240);
    const two = paste(paste(canvas(640, 360), man, 40, 60), woman, 360, 60);
    const several = await analyzeFaces([doc], two);
    expect(several.face!.faces_in_selfie).toBe(2);
  });
});
