import type { RgbImage } from '../../../src/image/raster.ts';
import { blurRgb, clamp255, encodeJpeg, encodePng, resizeTo } from './raster-io.ts';
import type { Rng } from './rng.ts';

/**
 * Genuine documents that never met a camera: a rendered page saved as PNG, the same exported as
 * a mildly compressed JPEG, and a flatbed scan (flat, evenly lit, slightly soft, faint sensor
 * noise, the paper white lifted by the scanner's levels). They have none of a phone's noise and
 * blur, so a classifier trained on phone captures alone may read their crisp edges as a screen's
 * pixels; these are the bona fide examples that teach it otherwise. Sizes vary so that the
 * service's scaling (never up, down to 1600 px) resamples them as it does real uploads.
 */
export type CleanStyle = 'png' | 'jpeg' | 'scan';

export async function cleanDigital(img: RgbImage, rng: Rng, style: CleanStyle): Promise<Uint8Array> {
  const long = Math.round(rng.between(1000, 2400));
  const k = long / Math.max(img.width, img.height);
  let out = await resizeTo(img, Math.round(img.width * k), Math.round(img.height * k));
  if (style === 'png') return encodePng(out);
  if (style === 'jpeg') return encodeJpeg(out, Math.round(rng.between(80, 95)));
  out = await blurRgb(out, rng.between(0.3, 0.8));
  const white = rng.between(235, 250); // the scanner's levels: this input level maps to 255
  const sigma = rng.between(0.5, 1.8);
  const rgb = new Uint8Array(out.rgb.length);
  for (let p = 0; p < rgb.length; p += 3) {
    const n = rng.normal() * sigma;
    for (let c = 0; c < 3; c++) rgb[p + c] = clamp255((out.rgb[p + c]! * 255) / white + n);
  }
  const scan = { rgb, width: out.width, height: out.height };
  return rng.next() < 0.5 ? encodePng(scan) : encodeJpeg(scan, Math.round(rng.between(85, 95)));
}
