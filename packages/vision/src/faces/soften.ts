import { luma } from '../image/grey.ts';

/**
 * A document portrait's print softened before it is embedded. Documents print their portrait
 * through a screen (halftone dots, straight or engraved lines, a few page pixels apart); at the
 * size the embedding models see a face (FaceRes 224 px, the ResNet 150 px for the whole head)
 * those lines are still there, and the models read them as part of the face. A Gaussian low-pass
 * on the aligned crop takes the screen out and keeps what identity is read from (the face's shape
 * and shading, coarser than a screen's period). Whether and how much: descreen.ts.
 */

/** A normalised Gaussian kernel of `sigma` px, three sigmas each side. */
function gaussianKernel(sigma: number): Float32Array {
  const radius = Math.max(1, Math.ceil(3 * sigma));
  const kernel = new Float32Array(2 * radius + 1);
  let total = 0;
  for (let k = -radius; k <= radius; k++) {
    kernel[k + radius] = Math.exp(-(k * k) / (2 * sigma * sigma));
    total += kernel[k + radius]!;
  }
  return kernel.map((v) => v / total);
}

/** The aligned crop (HWC, `size` × `size`, three channels) blurred by a Gaussian of `sigma` px. */
export function softenCrop(pixels: Float32Array, size: number, sigma: number): Float32Array {
  if (!(sigma > 0)) return pixels;
  const kernel = gaussianKernel(sigma);
  const radius = (kernel.length - 1) / 2;
  const pass = (from: Float32Array, dx: number, dy: number): Float32Array => {
    const to = new Float32Array(from.length);
    for (let y = 0; y < size; y++) {
      for (let x = 0; x < size; x++) {
        for (let c = 0; c < 3; c++) {
          let s = 0;
          for (let k = -radius; k <= radius; k++) {
            // Edges repeat (the crop's border is face or backdrop, not black).
            const sx = Math.min(size - 1, Math.max(0, x + k * dx));
            const sy = Math.min(size - 1, Math.max(0, y + k * dy));
            s += kernel[k + radius]! * from[(sy * size + sx) * 3 + c]!;
          }
          to[(y * size + x) * 3 + c] = s;
        }
      }
    }
    return to;
  };
  return pass(pass(pixels, 1, 0), 0, 1);
}

/**
 * How much fine texture lies over the face: the median, over the crop's central half, of the
 * absolute difference between the grey crop and itself softened by `sigma`, divided by the
 * softened crop's contrast there (its 90th minus 10th percentile). A print screen puts that
 * texture everywhere, skin included; a photo (or a plain print photographed) has it only on
 * edges, which the median leaves out.
 */
export function fineTexture(pixels: Float32Array, size: number, sigma: number): number {
  // Not softenCrop on a grey copy: that blurs all three channels of the whole crop (20 ms);
  // only the central half's grey is needed (6 ms), and the result is the same.
  const kernel = gaussianKernel(sigma);
  const radius = (kernel.length - 1) / 2;
  const lo = Math.floor(size / 4);
  const hi = Math.ceil((3 * size) / 4);
  const n = hi - lo;
  // Only the central half is measured: its grey, blurred across rows with `radius` rows of
  // margin above and below, then down the columns.
  const rows = Math.min(size, hi + radius) - Math.max(0, lo - radius);
  const top = Math.max(0, lo - radius);
  const greyAt = (x: number, y: number) => {
    const o = (y * size + x) * 3;
    return luma(pixels[o]!, pixels[o + 1]!, pixels[o + 2]!);
  };
  const across = new Float32Array(rows * n);
  for (let r = 0; r < rows; r++) {
    for (let x = lo; x < hi; x++) {
      let sum = 0;
      for (let k = -radius; k <= radius; k++)
        sum += kernel[k + radius]! * greyAt(Math.min(size - 1, Math.max(0, x + k)), top + r);
      across[r * n + x - lo] = sum;
    }
  }
  const residual = new Float32Array(n * n);
  const level = new Float32Array(n * n);
  for (let y = lo; y < hi; y++) {
    for (let x = lo; x < hi; x++) {
      let sum = 0;
      for (let k = -radius; k <= radius; k++) {
        const r = Math.min(rows - 1, Math.max(0, y + k - top));
        sum += kernel[k + radius]! * across[r * n + x - lo]!;
      }
      const i = (y - lo) * n + x - lo;
      residual[i] = Math.abs(greyAt(x, y) - sum);
      level[i] = sum;
    }
  }
  residual.sort();
  level.sort();
  const at = (sorted: Float32Array, q: number) =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return at(residual, 0.5) / Math.max(1, at(level, 0.9) - at(level, 0.1));
}
