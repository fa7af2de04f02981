import sharp from 'sharp';
import { type CaptureParams, capture } from '../../scripts/synth/index.ts';
import { rng } from '../../scripts/synth/random.ts';
import { type NormalizedImage, normalizeImage } from '../../src/image/normalize.ts';

/**
 * A drawn page (an upright render of the synthetic benchmark) captured with fixed parameters and
 * decoded as an upload: the tests that pin one capture condition (a small scan, a quarter turn, a
 * card back read upright) share this instead of each decoding, capturing and normalising.
 */
export async function capturedPage(
  image: Buffer,
  params: CaptureParams,
  seed: number,
): Promise<NormalizedImage> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const shot = await capture([{ rgb: data, width: info.width, height: info.height }], params, rng(seed));
  return normalizeImage(new Uint8Array(shot.image));
}
