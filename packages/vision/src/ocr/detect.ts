import { type Point, type Quad, type RgbImage, resizeRgb } from '../image/raster.ts';
import { minAreaRect, type RotatedRect, rectCorners } from './geometry.ts';
import { detectionModel } from './models.ts';

/**
 * Text detection with the PP-OCRv4 DB (differentiable binarisation) model: the network gives a
 * per-pixel text probability; boxes are the connected regions of that map, fitted with a
 * rotated rectangle and grown back ("unclip") because DB is trained on shrunk text kernels.
 */

export interface TextBox {
  /** Corners in the coordinates of the input image (top-left, top-right, bottom-right, bottom-left). */
  quad: Quad;
  /** Rotated rectangle in input coordinates (after unclip). */
  rect: RotatedRect;
  /** Mean text probability inside the region, 0..1. */
  score: number;
}

export interface DetectOptions {
  /** Long side of the image given to the network (multiple of 32). Cost grows with its square. */
  maxSide?: number;
}

/** Pixel is text when its probability exceeds this (PaddleOCR's det_db_thresh). */
const PIXEL_THRESHOLD = 0.3;
/** Region kept when its mean probability exceeds this (PaddleOCR's det_db_box_thresh). */
const BOX_THRESHOLD = 0.5;
/** How far the shrunk kernel is grown back (PaddleOCR's det_db_unclip_ratio, 1.5–2.0). */
const UNCLIP_RATIO = 1.6;
/** Regions thinner than this (in network pixels) are noise, not text. */
const MIN_SHORT_SIDE = 2;

// PaddleOCR normalises detection input with ImageNet statistics on BGR channels.
const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];

export async function detectText(img: RgbImage, opts: DetectOptions = {}): Promise<TextBox[]> {
  const maxSide = opts.maxSide ?? 640;
  const scale = Math.min(1, maxSide / Math.max(img.width, img.height));
  const w = Math.max(32, Math.round((img.width * scale) / 32) * 32);
  const h = Math.max(32, Math.round((img.height * scale) / 32) * 32);
  const small = resizeRgb(img, w, h);
  const plane = w * h;
  const input = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) {
    // BGR order: channel 0 is blue.
    for (let c = 0; c < 3; c++) {
      input[c * plane + i] = (small.rgb[i * 3 + (2 - c)]! / 255 - MEAN[c]!) / STD[c]!;
    }
  }
  const model = await detectionModel();
  const out = await model.run(input, [1, 3, h, w]);
  const prob = out.data;
  const boxes = boxesFromProbability(prob, w, h);
  const sx = img.width / w;
  const sy = img.height / h;
  return boxes.map((b) => scaleBox(b, sx, sy));
}

function scaleBox(b: TextBox, sx: number, sy: number): TextBox {
  const quad = b.quad.map(([x, y]) => [x * sx, y * sy] as Point) as Quad;
  const r = b.rect;
  const c = Math.cos(r.angle);
  const s = Math.sin(r.angle);
  // Scale the rectangle's axes: exact for sx == sy, close enough otherwise (rounding to /32).
  const long = r.long * Math.hypot(c * sx, s * sy);
  const short = r.short * Math.hypot(s * sx, c * sy);
  return { quad, score: b.score, rect: { cx: r.cx * sx, cy: r.cy * sy, long, short, angle: r.angle } };
}

/** Connected components of the thresholded map, each turned into an unclipped rotated box. */
export function boxesFromProbability(prob: Float32Array, w: number, h: number): TextBox[] {
  const label = new Int32Array(w * h);
  const boxes: TextBox[] = [];
  const stack: number[] = [];
  let next = 0;
  for (let start = 0; start < w * h; start++) {
    if (label[start] !== 0 || prob[start]! <= PIXEL_THRESHOLD) continue;
    next++;
    label[start] = next;
    stack.push(start);
    // For the hull only the extreme pixels of each row matter.
    const rowMin = new Map<number, number>();
    const rowMax = new Map<number, number>();
    let sum = 0;
    let count = 0;
    while (stack.length > 0) {
      const p = stack.pop()!;
      const x = p % w;
      const y = (p - x) / w;
      sum += prob[p]!;
      count++;
      const mn = rowMin.get(y);
      if (mn === undefined || x < mn) rowMin.set(y, x);
      const mx = rowMax.get(y);
      if (mx === undefined || x > mx) rowMax.set(y, x);
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= h) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= w) continue;
          const q = ny * w + nx;
          if (label[q] === 0 && prob[q]! > PIXEL_THRESHOLD) {
            label[q] = next;
            stack.push(q);
          }
        }
      }
    }
    if (count < 6) continue;
    const score = sum / count;
    if (score < BOX_THRESHOLD) continue;
    const pts: Point[] = [];
    for (const [y, x0] of rowMin) {
      const x1 = rowMax.get(y)!;
      // Pixel corners, so a one-pixel-high row still has area.
      pts.push([x0, y], [x1 + 1, y], [x0, y + 1], [x1 + 1, y + 1]);
    }
    const rect = minAreaRect(pts);
    if (rect.short < MIN_SHORT_SIDE) continue;
    const grown = unclip(rect);
    boxes.push({ rect: grown, quad: rectCorners(grown), score });
  }
  return boxes;
}

/** Grows a shrunk text kernel back by the DB offset d = area · ratio / perimeter on every side. */
function unclip(r: RotatedRect): RotatedRect {
  const area = r.long * r.short;
  const perimeter = 2 * (r.long + r.short);
  const d = (area * UNCLIP_RATIO) / perimeter;
  return { ...r, long: r.long + 2 * d, short: r.short + 2 * d };
}
