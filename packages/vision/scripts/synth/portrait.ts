import sharp from 'sharp';
import { packageFile } from '../../src/runtime/onnx.ts';
import type { Rng } from './random.ts';

/**
 * Real portrait photos for the synthetic documents: head-and-shoulders crops around faces in
 * pictures shipped inside npm packages already installed (MIT licence): @vladmandic/face-api's
 * demo samples and @vladmandic/human's face-id screenshot. The face boxes below were found
 * once with the project's own face detector (score ≥ 0.74) and written down, so generation
 * needs no model.
 */

interface Source {
  pkg: string;
  file: string;
  /** Face boxes [x, y, w, h] in the file's pixels. */
  faces: [number, number, number, number][];
}

const SOURCES: Source[] = [
  {
    pkg: '@vladmandic/face-api',
    file: 'demo/sample1.jpg',
    faces: [
      [418, 408, 197, 197],
      [1489, 264, 154, 154],
      [849, 472, 174, 174],
    ],
  },
  {
    pkg: '@vladmandic/face-api',
    file: 'demo/sample2.jpg',
    faces: [
      [1453, 194, 196, 196],
      [345, 186, 234, 234],
      [880, 257, 221, 222],
    ],
  },
  {
    pkg: '@vladmandic/face-api',
    file: 'demo/sample3.jpg',
    faces: [
      [590, 387, 204, 204],
      [1066, 257, 243, 243],
    ],
  },
  {
    pkg: '@vladmandic/face-api',
    file: 'demo/sample4.jpg',
    faces: [
      [988, 227, 189, 189],
      [673, 120, 174, 174],
      [237, 244, 186, 186],
      [1282, 208, 175, 175],
    ],
  },
  {
    pkg: '@vladmandic/face-api',
    file: 'demo/sample5.jpg',
    faces: [
      [777, 162, 166, 166],
      [579, 461, 187, 187],
      [1106, 253, 189, 189],
      [1416, 443, 203, 204],
      [356, 944, 203, 204],
    ],
  },
  {
    pkg: '@vladmandic/face-api',
    file: 'demo/sample6.jpg',
    faces: [
      [237, 535, 223, 223],
      [1141, 350, 239, 239],
      [658, 385, 233, 233],
      [1472, 322, 233, 233],
    ],
  },
  { pkg: '@vladmandic/human', file: 'assets/screenshot-faceid.jpg', faces: [[40, 174, 88, 88]] },
];

/** Every face, numbered: a document's portrait is one of them (the truth records which). */
export const PORTRAITS = SOURCES.flatMap((s) => s.faces.map((face) => ({ source: s, face })));

const decoded = new Map<string, Promise<{ data: Buffer; width: number; height: number }>>();

function decode(s: Source) {
  let p = decoded.get(s.file);
  if (!p) {
    p = sharp(packageFile(s.pkg, s.file))
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true })
      .then(({ data, info }) => ({ data, width: info.width, height: info.height }));
    decoded.set(s.file, p);
  }
  return p;
}

export interface Portrait {
  /** RGB, w×h. */
  rgb: Buffer;
  /** Index in PORTRAITS (the identity of the person). */
  index: number;
  /** The face box inside the portrait, in the portrait's pixels. */
  face: [number, number, number, number];
}

/**
 * A head-and-shoulders crop of a chosen face resized to w×h (the face takes about half the
 * width, eyes a little above the middle, as ICAO photo rules ask), grey when `gray`.
 */
export async function portrait(r: Rng, w: number, h: number, gray: boolean): Promise<Portrait> {
  const index = r.int(0, PORTRAITS.length - 1);
  const { source, face } = PORTRAITS[index]!;
  const img = await decode(source);
  const [fx, fy, fw, fh] = face;
  const zoom = r.range(1.8, 2.2);
  let cw = fw * zoom;
  let ch = (cw * h) / w;
  const cx = fx + fw / 2 + r.range(-0.05, 0.05) * fw;
  let top = fy - fh * r.range(0.45, 0.65);
  // Keep the crop inside the picture.
  cw = Math.min(cw, img.width);
  ch = Math.min(ch, img.height);
  let left = Math.round(Math.min(Math.max(0, cx - cw / 2), img.width - cw));
  top = Math.round(Math.min(Math.max(0, top), img.height - ch));
  left = Math.max(0, left);
  const extract = { left, top: Math.max(0, top), width: Math.round(cw), height: Math.round(ch) };
  const pipeline = sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
    .extract(extract)
    .resize(w, h, { fit: 'fill' });
  const rgb = await pipeline.removeAlpha().raw().toBuffer();
  if (gray)
    for (let i = 0; i < rgb.length; i += 3) {
      const l = Math.round(0.299 * rgb[i]! + 0.587 * rgb[i + 1]! + 0.114 * rgb[i + 2]!);
      rgb[i] = rgb[i + 1] = rgb[i + 2] = l;
    }
  const sx = w / extract.width;
  const sy = h / extract.height;
  return { rgb, index, face: [(fx - extract.left) * sx, (fy - extract.top) * sy, fw * sx, fh * sy] };
}
