import { dist, type Point, type Quad, type RgbImage, warpQuad } from '../image/raster.ts';
import { upperMedian } from '../image/stats.ts';
import { upscaleForOcr } from '../image/upscale.ts';
import { detectText, type TextBox } from './detect.ts';
import { minAreaRect, type RotatedRect, rectCorners } from './geometry.ts';
import { type PageReading, readPage } from './page.ts';

/**
 * Locating the document before reading it. A document photographed from afar (a passport on a
 * desk in a 2160×3840 phone frame, a photocopy on a sheet of paper) fills a fifth of the frame
 * or less: at the detector's working size its text is 5–6 px tall, below what DB detection
 * separates, and the MRZ is never found. The text the first detection does find still shows
 * where the document is; that region is cut out along its own axis (straightening the tilt),
 * upscaled when small, and detected and read again at a useful scale.
 */

export interface PageView {
  /** The image the page was read from: the input itself, or the straightened document crop. */
  image: RgbImage;
  page: PageReading;
  /** Maps a point of `image` back to the input image's pixels. */
  toSource(p: Point): Point;
  /** True when the document was located and cropped. */
  focused: boolean;
  /**
   * Text boxes of the first detection left outside the crop (0 without a crop): many of them
   * say that the frame holds more than one document (a card's front and back side by side).
   */
  outside?: number;
}

export interface FocusOptions {
  /** Detection working size of the first pass (long side). */
  detectSide?: number;
  /** Leave the MRZ-like rows unread for the MRZ reader (page.ts ReadPageOptions.deferMrzRows). */
  deferMrzRows?: boolean;
}

/** Below this share of the frame's area, the text region is worth cropping and detecting again. */
const FOCUS_AREA_SHARE = 0.35;
/** Fewer text boxes than this do not outline a document (a cover, a card edge, noise). */
const MIN_REGION_BOXES = 4;
/** Frames smaller than this (long side) are already detected near their native resolution. */
const MIN_FOCUS_LONG_SIDE = 800;
/**
 * When a large frame shows almost no text at the first working size, detection is run once more
 * at this size to find small text (a document far from the camera). Costs ~4× a first pass, so
 * only when the first pass found fewer than MIN_REGION_BOXES boxes.
 */
const SEARCH_DETECT_SIDE = 1280;
/** Below this long side an upload is a small scan, read from an upscaled copy (upscale.ts). */
const SMALL_SCAN_LONG_SIDE = 640;

/** Whether an upload is a small scan, its page read from an upscaled copy (readDocumentPage). */
export function isSmallScan(img: { width: number; height: number }): boolean {
  return Math.max(img.width, img.height) < SMALL_SCAN_LONG_SIDE;
}
/** Detection size for the upscaled small scan (its long side is upscale.ts's 1000 px). */
const SMALL_SCAN_DETECT_SIDE = 992;
/** Boxes farther than this many median distances from the text's centre are background. */
const OUTLIER_DISTANCE = 3;
/**
 * A far box rejoins the document's text when it lies within this share of the text region's
 * long side of a box already kept. On Niger's paper card the fields block is the dense part; the
 * header and the number at the top right lie across the portrait, 0.7 to 1.1 times the block's
 * size away: 1.2 brings them back, and clutter farther than that stays out.
 */
const LINK_SHARE = 1.2;
/**
 * Margin added around the text region: a share of its size, and at least this many line heights.
 * Generous, because a line the first pass missed (small print at the page's edge) must still be
 * inside the crop; a larger crop only costs detection time.
 */
const MARGIN_SHARE = 0.1;
const MARGIN_LINES = 2;

/**
 * Reads the page of a photo, locating the document first when it is small in the frame.
 * Without a crop the first detection is reused (no work is done twice).
 */
export async function readDocumentPage(img: RgbImage, opts: FocusOptions = {}): Promise<PageView> {
  const detectSide = opts.detectSide ?? 640;
  const deferMrzRows = opts.deferMrzRows ?? false;
  const t0 = performance.now();
  if (isSmallScan(img)) {
    // A small scan (a card of ~300x450 px): MRZ characters ~6 px wide, too small for the detector
    // to separate the rows at native size. Detected and read from an upscaled copy instead.
    const page = await readPage(img, {
      upscale: true,
      detectSide: SMALL_SCAN_DETECT_SIDE,
      minLineHeight: 5,
      deferMrzRows,
    });
    return { image: img, page, toSource: (p) => p, focused: false };
  }
  let boxes = await detectText(img, { maxSide: detectSide });
  let region = documentRegion(boxes, img);
  const long = Math.max(img.width, img.height);
  if (!region && boxes.length < MIN_REGION_BOXES && long >= 2 * detectSide) {
    boxes = await detectText(img, { maxSide: Math.min(long, SEARCH_DETECT_SIDE) });
    region = documentRegion(boxes, img);
  }
  const firstMs = performance.now() - t0;
  if (
    !region ||
    long < MIN_FOCUS_LONG_SIDE ||
    region.long * region.short >= FOCUS_AREA_SHARE * img.width * img.height
  ) {
    const page = await readPage(img, { detectSide, boxes, deferMrzRows });
    page.detectMs += firstMs;
    return { image: img, page, toSource: (p) => p, focused: false };
  }
  const quad = uprightQuad(region);
  const w = Math.max(32, Math.round(dist(quad[0], quad[1])));
  const h = Math.max(32, Math.round(dist(quad[0], quad[3])));
  const crop = warpQuad(img, quad, w, h);
  const { image, factor } = await upscaleForOcr(crop);
  const page = await readPage(image, { detectSide, deferMrzRows });
  page.detectMs += firstMs;
  const toSource = ([x, y]: Point): Point => {
    const u = x / factor / w;
    const v = y / factor / h;
    return [
      quad[0][0] + u * (quad[1][0] - quad[0][0]) + v * (quad[3][0] - quad[0][0]),
      quad[0][1] + u * (quad[1][1] - quad[0][1]) + v * (quad[3][1] - quad[0][1]),
    ];
  };
  return { image, page, toSource, focused: true, outside: boxesOutside(boxes, region) };
}

/** Boxes whose centre lies outside a rotated rectangle. */
function boxesOutside(boxes: TextBox[], r: RotatedRect): number {
  const c = Math.cos(r.angle);
  const s = Math.sin(r.angle);
  return boxes.filter((b) => {
    const dx = b.rect.cx - r.cx;
    const dy = b.rect.cy - r.cy;
    return Math.abs(dx * c + dy * s) > r.long / 2 || Math.abs(-dx * s + dy * c) > r.short / 2;
  }).length;
}

/**
 * The rotated rectangle holding the document's text, grown by a margin, or null when the boxes
 * do not outline one. Boxes far from the others (background clutter) are left out.
 */
export function documentRegion(boxes: TextBox[], img: { width: number; height: number }): RotatedRect | null {
  if (boxes.length < MIN_REGION_BOXES) return null;
  const cx = upperMedian(boxes.map((b) => b.rect.cx));
  const cy = upperMedian(boxes.map((b) => b.rect.cy));
  const dists = boxes.map((b) => Math.hypot(b.rect.cx - cx, b.rect.cy - cy));
  const limit = OUTLIER_DISTANCE * Math.max(upperMedian(dists), 1);
  const kept = boxes.filter((_, i) => dists[i]! <= limit);
  if (kept.length < MIN_REGION_BOXES) return null;
  // A document's own text far from the centre of its text (the header of a tall page above its
  // portrait, a number in a corner) is linked to it by nearby text: boxes within a share of the
  // region's size of a kept box come back, step by step. Background clutter stays out unless it
  // touches the document.
  const far = boxes.filter((_, i) => dists[i]! > limit);
  const span = minAreaRect(kept.flatMap((b) => b.quad)).long;
  for (let added = true; added && far.length > 0; ) {
    added = false;
    for (let k = far.length - 1; k >= 0; k--) {
      const b = far[k]!;
      const near = kept.some(
        (c) => Math.hypot(b.rect.cx - c.rect.cx, b.rect.cy - c.rect.cy) <= LINK_SHARE * span,
      );
      if (near) {
        kept.push(b);
        far.splice(k, 1);
        added = true;
      }
    }
  }
  const rect = minAreaRect(kept.flatMap((b) => b.quad));
  const lineHeight = upperMedian(kept.map((b) => b.rect.short));
  const grow = (side: number) => side + 2 * Math.max(MARGIN_SHARE * side, MARGIN_LINES * lineHeight);
  const grown = { ...rect, long: grow(rect.long), short: grow(rect.short) };
  // Clamp to the frame's size: a region larger than the frame is no crop at all.
  if (grown.long > Math.hypot(img.width, img.height)) return null;
  return grown;
}

/**
 * Corners of the region ordered so that the crop keeps the frame's orientation (turned by at most
 * 45°): page.ts then finds the reading direction as for any photo.
 */
function uprightQuad(r: RotatedRect): Quad {
  const corners = rectCorners(r);
  // Start from the corner nearest the top-left of the frame, going clockwise in image coordinates.
  let start = 0;
  let bestScore = Number.POSITIVE_INFINITY;
  corners.forEach(([x, y], i) => {
    const s = x + y;
    if (s < bestScore) {
      bestScore = s;
      start = i;
    }
  });
  // rectCorners runs clockwise on screen (y down), so the next corner is the top-right one.
  return [0, 1, 2, 3].map((k) => corners[(start + k) % 4]!) as Quad;
}
