/**
 * Plane geometry of a capture: homographies between the upright document and the photo, and
 * the quarter turns of the photo. Kept here (not in src/image) because only the generator needs
 * the forward mapping: every truth box is carried through the same transforms as the pixels.
 */

export type Point = [number, number];
export type Quad = [Point, Point, Point, Point];
/** Row-major 3×3. */
export type Homography = number[];

/** Solves A x = b (n×n) by Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

/** The homography taking the four `from` points onto the four `to` points. */
export function homography(from: Quad, to: Quad): Homography {
  const a: number[][] = [];
  const b: number[] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i]!;
    const [u, v] = to[i]!;
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y]);
    b.push(u);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y]);
    b.push(v);
  }
  return [...solve(a, b), 1];
}

export function apply(h: Homography, [x, y]: Point): Point {
  const w = h[6]! * x + h[7]! * y + h[8]!;
  return [(h[0]! * x + h[1]! * y + h[2]!) / w, (h[3]! * x + h[4]! * y + h[5]!) / w];
}

export function invert(h: Homography): Homography {
  const [a, b, c, d, e, f, g, hh, i] = h as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const A = e * i - f * hh;
  const B = -(d * i - f * g);
  const C = d * hh - e * g;
  const det = a * A + b * B + c * C;
  return [
    A / det,
    -(b * i - c * hh) / det,
    (b * f - c * e) / det,
    B / det,
    (a * i - c * g) / det,
    -(a * f - c * d) / det,
    C / det,
    -(a * hh - b * g) / det,
    (a * e - b * d) / det,
  ];
}

/** Where a point of a w×h image goes when the image is turned `turns` quarter turns clockwise. */
export function turnPoint([x, y]: Point, w: number, h: number, turns: number): Point {
  switch (((turns % 4) + 4) % 4) {
    case 1:
      return [h - y, x];
    case 2:
      return [w - x, h - y];
    case 3:
      return [y, w - x];
    default:
      return [x, y];
  }
}

export function rectQuad(x0: number, y0: number, x1: number, y1: number): Quad {
  return [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
  ];
}
