import { readFile } from 'node:fs/promises';
import { cropResize } from '../../src/image/affine.ts';
import { luma } from '../../src/image/grey.ts';
import { type NormalizedImage, normalizeImage } from '../../src/image/normalize.ts';
import { cropImage, rgbImage } from '../../src/image/raster.ts';
import { packageFile } from '../../src/runtime/onnx.ts';

/**
 * Real faces for the tests, from pictures shipped inside the @vladmandic/human npm package
 * (MIT): the author's webcam face in a demo screenshot, and a woman's portrait thumbnail from
 * the samples collage. Two different people.
 */
async function asset(name: string): Promise<NormalizedImage> {
  return normalizeImage(new Uint8Array(await readFile(packageFile('@vladmandic/human', `assets/${name}`))));
}

/** The man: a webcam selfie-like picture (800×564, one face). */
export async function manSelfie(): Promise<NormalizedImage> {
  return asset('screenshot-faceid.jpg');
}

/** The man's head and shoulders, cropped from the screenshot. */
export async function manPortrait(): Promise<NormalizedImage> {
  return cropImage(await manSelfie(), { x: 14, y: 142, w: 150, h: 180 });
}

/** The woman: second thumbnail of the samples collage. */
export async function womanSelfie(): Promise<NormalizedImage> {
  return cropImage(await asset('samples.jpg'), { x: 165, y: 0, w: 160, h: 160 });
}

/** Resizes `src` to w×h. */
export function resized(src: NormalizedImage, w: number, h: number): NormalizedImage {
  const f = cropResize(src, { x: 0, y: 0, w: src.width, h: src.height }, w, h);
  return rgbImage(
    Uint8Array.from(f, (v) => Math.round(v)),
    w,
    h,
  );
}

/** Copies `src` into a copy of `dst` at (x, y); `grey` turns the pasted pixels grey. */
export function paste(
  dst: NormalizedImage,
  src: NormalizedImage,
  x: number,
  y: number,
  grey = false,
): NormalizedImage {
  const rgb = Uint8Array.from(dst.rgb);
  for (let sy = 0; sy < src.height; sy++) {
    for (let sx = 0; sx < src.width; sx++) {
      const dx = x + sx;
      const dy = y + sy;
      if (dx < 0 || dy < 0 || dx >= dst.width || dy >= dst.height) continue;
      const s = (sy * src.width + sx) * 3;
      const d = (dy * dst.width + dx) * 3;
      const l = luma(src.rgb[s]!, src.rgb[s + 1]!, src.rgb[s + 2]!);
      for (let c = 0; c < 3; c++) rgb[d + c] = grey ? Math.round(l) : src.rgb[s + c]!;
    }
  }
  return rgbImage(rgb, dst.width, dst.height);
}

/** A plain canvas of one colour. */
export function canvas(
  w: number,
  h: number,
  colour: [number, number, number] = [235, 230, 220],
): NormalizedImage {
  const rgb = new Uint8Array(w * h * 3);
  for (let i = 0; i < rgb.length; i += 3) rgb.set(colour, i);
  return rgbImage(rgb, w, h);
}
