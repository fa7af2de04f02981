import type { TextBoxObservation } from './text-boxes.ts';

export interface Extent {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Margin added around the read text: document edges and unread print lie a little outside it. */
const MARGIN_SHARE = 0.03;
/** Fewer lines than this say little about where the document is. */
const MIN_LINES = 3;

/**
 * Where the document lies on one photo, as far as the OCR can tell: the bounding box of every
 * line read on that side, grown by a small margin and clipped to the image. Null when too few
 * lines were read to say.
 */
export function textExtent(
  lines: TextBoxObservation[],
  side: 'front' | 'back',
  width: number,
  height: number,
): Extent | null {
  const points = lines.filter((l) => l.side === side).flatMap((l) => l.quad);
  if (points.length < MIN_LINES * 4) return null;
  const mx = MARGIN_SHARE * width;
  const my = MARGIN_SHARE * height;
  const x0 = Math.max(0, Math.min(...points.map(([x]) => x)) - mx);
  const y0 = Math.max(0, Math.min(...points.map(([, y]) => y)) - my);
  const x1 = Math.min(width, Math.max(...points.map(([x]) => x)) + mx);
  const y1 = Math.min(height, Math.max(...points.map(([, y]) => y)) + my);
  return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
}
