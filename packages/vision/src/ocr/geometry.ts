import type { Point, Quad } from '../image/raster.ts';

/** Convex hull (Andrew's monotone chain), counter-clockwise in image coordinates. */
export function convexHull(points: Point[]): Point[] {
  const pts = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (pts.length <= 2) return pts;
  const cross = (o: Point, a: Point, b: Point) =>
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: Point[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0)
      lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0)
      upper.pop();
    upper.push(p);
  }
  upper.pop();
  lower.pop();
  return lower.concat(upper);
}

export interface RotatedRect {
  cx: number;
  cy: number;
  /** Length along the long axis. */
  long: number;
  /** Length along the short axis. */
  short: number;
  /** Angle of the long axis in radians, in (-pi/2, pi/2]. */
  angle: number;
}

/**
 * Minimum-area enclosing rectangle of a point set: tries every hull edge direction
 * (the optimal rectangle has a side collinear with a hull edge).
 */
export function minAreaRect(points: Point[]): RotatedRect {
  const hull = convexHull(points);
  if (hull.length < 3) {
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    const w = Math.max(...xs) - Math.min(...xs) + 1;
    const h = Math.max(...ys) - Math.min(...ys) + 1;
    return {
      cx: (Math.max(...xs) + Math.min(...xs)) / 2,
      cy: (Math.max(...ys) + Math.min(...ys)) / 2,
      long: Math.max(w, h),
      short: Math.min(w, h),
      angle: w >= h ? 0 : Math.PI / 2,
    };
  }
  let best: RotatedRect | null = null;
  let bestArea = Number.POSITIVE_INFINITY;
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i]!;
    const b = hull[(i + 1) % hull.length]!;
    const theta = Math.atan2(b[1] - a[1], b[0] - a[0]);
    const c = Math.cos(theta);
    const s = Math.sin(theta);
    let minU = Number.POSITIVE_INFINITY;
    let maxU = Number.NEGATIVE_INFINITY;
    let minV = Number.POSITIVE_INFINITY;
    let maxV = Number.NEGATIVE_INFINITY;
    for (const p of hull) {
      const u = p[0] * c + p[1] * s;
      const v = -p[0] * s + p[1] * c;
      if (u < minU) minU = u;
      if (u > maxU) maxU = u;
      if (v < minV) minV = v;
      if (v > maxV) maxV = v;
    }
    const w = maxU - minU;
    const h = maxV - minV;
    const area = w * h;
    if (area < bestArea) {
      bestArea = area;
      const mu = (minU + maxU) / 2;
      const mv = (minV + maxV) / 2;
      const cx = mu * c - mv * s;
      const cy = mu * s + mv * c;
      let angle = w >= h ? theta : theta + Math.PI / 2;
      while (angle > Math.PI / 2) angle -= Math.PI;
      while (angle <= -Math.PI / 2) angle += Math.PI;
      best = { cx, cy, long: Math.max(w, h), short: Math.min(w, h), angle };
    }
  }
  return best!;
}

/**
 * Corners of a rotated rectangle, ordered for reading left to right along the long axis:
 * top-left, top-right, bottom-right, bottom-left. A line at angle ~±90° is returned with its
 * "top" on the left side of the image (a quarter-turn clockwise text); the 180° ambiguity is
 * resolved later by the recogniser.
 */
export function rectCorners(r: RotatedRect): Quad {
  const c = Math.cos(r.angle);
  const s = Math.sin(r.angle);
  const hl = r.long / 2;
  const hs = r.short / 2;
  const ux: Point = [c * hl, s * hl];
  const vy: Point = [-s * hs, c * hs];
  return [
    [r.cx - ux[0] - vy[0], r.cy - ux[1] - vy[1]],
    [r.cx + ux[0] - vy[0], r.cy + ux[1] - vy[1]],
    [r.cx + ux[0] + vy[0], r.cy + ux[1] + vy[1]],
    [r.cx - ux[0] + vy[0], r.cy - ux[1] + vy[1]],
  ];
}

/** Rotates the corner order by 180°: the same box read upside-down. */
export function flipQuad(q: Quad): Quad {
  return [q[2], q[3], q[0], q[1]];
}
