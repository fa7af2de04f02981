import {
  IMAGE_KINDS,
  type ImageKind,
  MAX_IMAGE_BYTES,
  pixelBudgetMessage,
  withinPixelBudget,
} from '@idv/core';
import type { Context } from 'hono';
import { ApiError } from './api-error.ts';
import { imageSize } from './image-size.ts';

/** Three images plus multipart framing. Larger bodies are refused before they are read. */
export const MAX_UPLOAD_BYTES = 3 * MAX_IMAGE_BYTES + 64 * 1024;

export interface UploadedImage {
  bytes: Uint8Array;
  contentType: 'image/jpeg' | 'image/png' | 'image/webp';
}

/** The image type from the file's first bytes; the declared Content-Type is not trusted. */
export function sniffImageType(bytes: Uint8Array): UploadedImage['contentType'] | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (
    bytes.length >= 8 &&
    Buffer.from(bytes.subarray(0, 8)).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  ) {
    return 'image/png';
  }
  if (
    bytes.length >= 12 &&
    Buffer.from(bytes.subarray(0, 4)).toString('latin1') === 'RIFF' &&
    Buffer.from(bytes.subarray(8, 12)).toString('latin1') === 'WEBP'
  ) {
    return 'image/webp';
  }
  return null;
}

/**
 * Reads a multipart body whose only parts may be the given image fields. Refuses: another
 * content type, a truncated or malformed body, unknown or repeated parts, a part that is not
 * a file, an empty or oversized file, a file that is not JPEG/PNG/WebP, an image whose header
 * states more pixels than the budget (a pixel bomb: refused before anything decodes it).
 */
export async function readImageParts<K extends string>(
  c: Context,
  allowed: readonly K[],
  required: readonly K[],
): Promise<Partial<Record<K, UploadedImage>>> {
  const type = c.req.header('content-type') ?? '';
  if (!type.toLowerCase().startsWith('multipart/form-data')) {
    throw new ApiError(
      'invalid_request',
      `send the images as multipart/form-data with parts ${allowed.join(', ')}`,
    );
  }
  const declared = Number(c.req.header('content-length') ?? 0);
  if (declared > MAX_UPLOAD_BYTES) {
    throw new ApiError(
      'image_too_large',
      `the request is ${declared} bytes; each image may be at most 12 MB`,
    );
  }
  let form: FormData;
  try {
    form = await c.req.raw.formData();
  } catch {
    throw new ApiError('invalid_request', 'the multipart body is malformed or truncated');
  }
  const images: Partial<Record<K, UploadedImage>> = {};
  const seen = new Set<string>();
  for (const [name, value] of form.entries()) {
    if (!(allowed as readonly string[]).includes(name)) {
      throw new ApiError(
        'invalid_request',
        `${name}: unexpected part; allowed parts are ${allowed.join(', ')}`,
      );
    }
    if (seen.has(name)) throw new ApiError('invalid_request', `${name}: sent more than once`);
    seen.add(name);
    if (typeof value === 'string')
      throw new ApiError('invalid_request', `${name}: must be a file, not a text field`);
    if (value.size === 0) throw new ApiError('invalid_image', `${name}: the file is empty`);
    if (value.size > MAX_IMAGE_BYTES) {
      throw new ApiError('image_too_large', `${name}: the image is ${value.size} bytes; the limit is 12 MB`);
    }
    const bytes = new Uint8Array(await value.arrayBuffer());
    const contentType = sniffImageType(bytes);
    if (!contentType) throw new ApiError('invalid_image', `${name}: not a JPEG, PNG or WebP image`);
    const size = imageSize(bytes, contentType);
    if (size && !withinPixelBudget(size.width, size.height)) {
      throw new ApiError('invalid_image', `${name}: ${pixelBudgetMessage(size.width, size.height)}`);
    }
    images[name as K] = { bytes, contentType };
  }
  for (const name of required) {
    if (!images[name]) throw new ApiError('invalid_request', `${name}: required image part is missing`);
  }
  return images;
}

export const VERIFY_IMAGE_PARTS: readonly ImageKind[] = IMAGE_KINDS;
