import { z } from 'zod';

/**
 * The images of one verification, written once: the upload's parts, the stored objects, the
 * analyzer's inputs, the tamper signals' sides and the image routes all use this list.
 */
export const IMAGE_KINDS = ['front', 'back', 'selfie'] as const;
export const ImageKindSchema = z.enum(IMAGE_KINDS);
export type ImageKind = (typeof IMAGE_KINDS)[number];

/** True for a string that names one of the image kinds (URL segments, signed links). */
export function isImageKind(value: unknown): value is ImageKind {
  return (IMAGE_KINDS as readonly unknown[]).includes(value);
}
