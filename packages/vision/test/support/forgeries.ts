import { grownRect, onionPeelFill } from '../../scripts/eval/corpus/inpaint.ts';
import type { FaceBox } from '../../src/faces/detect.ts';
import { luma } from '../../src/image/grey.ts';
import type { NormalizedImage } from '../../src/image/normalize.ts';

/**
 * Forgeries made the way the SIDTD dataset made its portrait swaps, for the streak test and the
 * portrait-swap evaluation: another face written into the portrait's place by forward mapping.
 */

/** The picture mirrored left-right. */
export function mirror(image: NormalizedImage): NormalizedImage {
  const { width: w, height: h } = image;
  const rgb = new Uint8Array(image.rgb.length);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const from = (y * w + x) * 3;
      rgb.set(image.rgb.subarray(from, from + 3), (y * w + (w - 1 - x)) * 3);
    }
  }
  return { ...image, rgb };
}

/**
 * The region around `donorFace` (1.3 × its width, 1.5 × its height) written into `target`,
 * centred on `targetFace`, scaled by `scale` (x and y), each source pixel sent to one truncated
 * target position: enlarged, some target rows and columns are never written and keep the old
 * portrait (SIDTD's crop-and-replace step).
 */
export function forwardMappedSwap(
  target: NormalizedImage,
  targetFace: FaceBox,
  donor: NormalizedImage,
  donorFace: FaceBox,
  scale: [number, number],
): NormalizedImage {
  const rgb = target.rgb.slice();
  const [sw, sh] = [Math.round(1.3 * donorFace.w), Math.round(1.5 * donorFace.h)];
  const sx0 = Math.round(donorFace.x + donorFace.w / 2 - sw / 2);
  const sy0 = Math.round(donorFace.y + donorFace.h / 2 - sh / 2);
  const tx0 = targetFace.x + targetFace.w / 2 - (sw * scale[0]) / 2;
  const ty0 = targetFace.y + targetFace.h / 2 - (sh * scale[1]) / 2;
  for (let y = 0; y < sh; y++) {
    for (let x = 0; x < sw; x++) {
      const [xs, ys] = [sx0 + x, sy0 + y];
      const [xt, yt] = [Math.trunc(tx0 + x * scale[0]), Math.trunc(ty0 + y * scale[1])];
      if (xs < 0 || ys < 0 || xs >= donor.width || ys >= donor.height) continue;
      if (xt < 0 || yt < 0 || xt >= target.width || yt >= target.height) continue;
      const from = (ys * donor.width + xs) * 3;
      rgb.set(donor.rgb.subarray(from, from + 3), (yt * target.width + xt) * 3);
    }
  }
  return { ...target, rgb };
}

/**
 * A text line erased by in-painting and typed again, the way SIDTD made its text forgeries: the
 * line's box (grown by `grow` × its height on every side) filled from its border inwards, each
 * pixel the mean of its already known neighbours (an onion-peel fill like OpenCV's TELEA), then
 * the line's old letters drawn back in black: the pixels more than `inkDepth` grey levels under
 * the paper (the evaluation's 40 keeps pale pattern lines filled, as new text would).
 */
export function inpaintedLine(
  image: NormalizedImage,
  quad: [number, number][],
  grow = 0,
  inkDepth = 20,
): NormalizedImage {
  const xs = quad.map((p) => p[0]);
  const ys = quad.map((p) => p[1]);
  const [x, y] = [Math.min(...xs), Math.min(...ys)];
  const box = { x, y, w: Math.max(...xs) - x + 1, h: Math.max(...ys) - y + 1 };
  const r = grownRect(box, 1 + grow * (box.h - 1), image.width, image.height);
  const filled = onionPeelFill(image, r).rgb;
  const W = image.width;
  const grey = (x: number, y: number) => {
    const i = (y * W + x) * 3;
    return luma(image.rgb[i]!, image.rgb[i + 1]!, image.rgb[i + 2]!);
  };
  const tones: number[] = [];
  for (let y = r.y0; y <= r.y1; y++) for (let x = r.x0; x <= r.x1; x++) tones.push(grey(x, y));
  tones.sort((a, b) => a - b);
  const paper = tones[Math.floor(0.75 * (tones.length - 1))]!;
  for (let y = r.y0; y <= r.y1; y++) {
    for (let x = r.x0; x <= r.x1; x++) {
      // The old letters, drawn back in black (antialiased edges keep their share of ink); pixels
      // within inkDepth of the paper (the printed pattern) stay filled.
      const ink = Math.max(0, Math.min(1, (paper - grey(x, y) - inkDepth) / 60));
      for (let c = 0; c < 3; c++)
        filled[(y * W + x) * 3 + c] = Math.round(filled[(y * W + x) * 3 + c]! * (1 - ink));
    }
  }
  return { ...image, rgb: filled };
}
