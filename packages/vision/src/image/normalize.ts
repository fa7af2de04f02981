import { MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS, pixelBudgetMessage, withinPixelBudget } from '@idv/core';
import sharp, { type Metadata } from 'sharp';
import { profiled } from '../runtime/profile.ts';

/** Long side of the working copy: enough for OCR of a 1600 px photo, small enough to stay fast. */
export const WORKING_LONG_SIDE = 1600;

export type ImageErrorCode = 'invalid_image' | 'image_too_large';

/** Raised for input that is not an image we accept; the API maps `code` to its error envelope. */
export class ImageInputError extends Error {
  constructor(
    readonly code: ImageErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ImageInputError';
  }
}

/** A decoded, upright image: 3-channel RGB, row-major, 8 bits per channel. */
export interface NormalizedImage {
  rgb: Uint8Array;
  width: number;
  height: number;
  /** Size of the original upload after EXIF orientation, before scaling. */
  originalWidth: number;
  originalHeight: number;
  format: 'jpeg' | 'png' | 'webp';
}

const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp']);

/**
 * For every decode of an upload: libvips refuses to decode more than the pixel budget (its own
 * default, 0x3FFF² = 268 Mpx, let a 16 000² pixel bomb through).
 */
export const DECODE_LIMITS = { limitInputPixels: MAX_IMAGE_PIXELS } as const;

/**
 * Decodes JPEG/PNG/WebP, applies the EXIF orientation, drops alpha and scales the long side
 * down to `longSide` (never up). Anything else, or bytes that do not decode, is `invalid_image`;
 * so is an image whose header states more pixels than the budget (checked before decoding).
 * JPEG and WebP are shrunk while they load (libvips' shrink-on-load, on by default in sharp), so
 * a large photo is never held at full size; PNG is read row by row (sequential access).
 */
export async function normalizeImage(
  bytes: Uint8Array,
  longSide = WORKING_LONG_SIDE,
): Promise<NormalizedImage> {
  if (bytes.byteLength > MAX_IMAGE_BYTES) {
    throw new ImageInputError('image_too_large', `image is ${bytes.byteLength} bytes; the limit is 12 MB`);
  }
  let meta: Metadata;
  try {
    meta = await sharp(bytes).metadata(); // the header only: no pixel is decoded
  } catch {
    throw new ImageInputError('invalid_image', 'the file is not a readable JPEG, PNG or WebP image');
  }
  if (!meta.format || !ACCEPTED_FORMATS.has(meta.format)) {
    throw new ImageInputError(
      'invalid_image',
      `format ${meta.format ?? 'unknown'} is not accepted; send JPEG, PNG or WebP`,
    );
  }
  if (meta.width && meta.height && !withinPixelBudget(meta.width, meta.height)) {
    throw new ImageInputError('invalid_image', pixelBudgetMessage(meta.width, meta.height));
  }
  try {
    const { data, info } = await profiled('decode', 'normalize', `${meta.width}x${meta.height}`, () =>
      sharp(bytes, { ...DECODE_LIMITS, failOn: 'error' })
        .rotate() // applies EXIF orientation
        .resize({ width: longSide, height: longSide, fit: 'inside', withoutEnlargement: true })
        .removeAlpha()
        .toColourspace('srgb')
        .raw()
        .toBuffer({ resolveWithObject: true }),
    );
    const swapped = (meta.orientation ?? 1) >= 5;
    return {
      rgb: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      width: info.width,
      height: info.height,
      originalWidth: (swapped ? meta.height : meta.width) ?? info.width,
      originalHeight: (swapped ? meta.width : meta.height) ?? info.height,
      format: meta.format as NormalizedImage['format'],
    };
  } catch {
    throw new ImageInputError('invalid_image', 'the image is truncated or corrupt and could not be decoded');
  }
}
