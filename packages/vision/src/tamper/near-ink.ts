import type { GreyImage } from '../image/grey.ts';

/**
 * The pixels of a straightened line's canvas near ink (within 2 px), for the in-painting cue
 * (smooth-fill.ts): ink is what lies darker than a grey level, and a pixel is near it when ink
 * lies in its 5×5 square (grow2). Made a band of rows at a time, as the cue reads the canvas
 * downwards: it often stops at the ring part above the line, and the rows below it are then
 * never thresholded nor grown.
 */
export class NearInk {
  /** 1 where ink lies within 2 px; valid in the rows made so far (`ready`). */
  readonly near: Uint8Array;
  private readonly ink: Uint8Array;
  private inkRows = 0;
  private ready = 0;

  constructor(
    private readonly canvas: GreyImage,
    private readonly inkBelow: number,
  ) {
    this.near = new Uint8Array(canvas.width * canvas.height);
    this.ink = new Uint8Array(canvas.width * canvas.height);
  }

  /** Makes the rows above `y1` ready (the ink of two more rows below them read). */
  makeRows(y1: number): void {
    const { data, width: W, height: H } = this.canvas;
    const end = Math.min(H, y1);
    if (end <= this.ready) return;
    const inkEnd = Math.min(H, end + 2);
    for (let i = this.inkRows * W; i < inkEnd * W; i++) this.ink[i] = data[i]! < this.inkBelow ? 1 : 0;
    this.inkRows = Math.max(this.inkRows, inkEnd);
    grow2Rows(this.ink, W, H, this.ready, end, this.near);
    this.ready = end;
  }
}

/** `mask` (0/1) grown by 2 px in every direction (a 5×5 square), within the image. */
export function grow2(mask: Uint8Array, W: number, H: number): Uint8Array {
  const out = new Uint8Array(W * H);
  grow2Rows(mask, W, H, 0, H, out);
  return out;
}

/**
 * Rows y0 ≤ y < y1 of grow2(mask) written into `out`, reading the mask's rows y0 − 2 to y1 + 1
 * only: the same counts over the same windows, so the same values as growing the whole mask.
 */
export function grow2Rows(
  mask: Uint8Array,
  W: number,
  H: number,
  y0: number,
  y1: number,
  out: Uint8Array,
): void {
  // Separable: ink within 2 px along the row, then within 2 px of that along the column; each
  // pass keeps a running count of the ones in its 5-pixel window.
  const first = Math.max(0, y0 - 2);
  const last = Math.min(H, y1 + 2);
  const rows = new Uint8Array((last - first) * W);
  for (let y = first; y < last; y++) {
    const m = y * W;
    const r = (y - first) * W;
    let count = 0;
    for (let x = 0; x < Math.min(2, W); x++) count += mask[m + x]!;
    for (let x = 0; x < W; x++) {
      if (x + 2 < W) count += mask[m + x + 2]!;
      if (x - 3 >= 0) count -= mask[m + x - 3]!;
      rows[r + x] = count > 0 ? 1 : 0;
    }
  }
  // The column pass row by row (one running count per column): the same counts as walking each
  // column down, without striding through memory a row at a time. The counts start with the
  // window of row y0 less its last row (rows y0 − 2 to y0 + 1).
  const counts = new Int32Array(W);
  for (let y = first; y < Math.min(H, y0 + 2); y++)
    for (let x = 0; x < W; x++) counts[x]! += rows[(y - first) * W + x]!;
  for (let y = y0; y < y1; y++) {
    const below = (y + 2 - first) * W;
    const above = (y - 3 - first) * W;
    const r = y * W;
    for (let x = 0; x < W; x++) {
      let count = counts[x]!;
      if (y + 2 < H) count += rows[below + x]!;
      if (y - 3 >= first) count -= rows[above + x]!;
      counts[x] = count;
      out[r + x] = count > 0 ? 1 : 0;
    }
  }
}
