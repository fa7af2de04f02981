import { z } from '@hono/zod-openapi';
import { IMAGE_KINDS, MAX_IMAGE_BYTES } from '@idv/core';
import type { Context } from 'hono';
import { ApiError } from '../../http/api-error.ts';
import { describeZodError } from '../../http/errors.ts';

/** Schemas of the direct-upload path: asking for targets, and naming the uploads in a verify. */

const UPLOAD_ID = /^upl_[a-z0-9]{1,64}$/;

const UploadFileSchema = z
  .object({
    kind: z.enum(IMAGE_KINDS).openapi({ description: 'Which image this file is', example: 'front' }),
    content_type: z
      .enum(['image/jpeg', 'image/png', 'image/webp'])
      .openapi({ description: 'The Content-Type the PUT must send', example: 'image/jpeg' }),
    // Larger sizes are refused by the handler with 413 `image_too_large`, not as a malformed body.
    size: z
      .number()
      .int()
      .min(1)
      .openapi({
        description: `The file's exact size in bytes, at most ${MAX_IMAGE_BYTES} (12 MiB); the PUT must send exactly this many`,
        example: 11_534_336,
      }),
  })
  .strict();

export const CreateUploadsBody = z
  .object({
    images: z
      .array(UploadFileSchema)
      .min(1)
      .max(IMAGE_KINDS.length)
      .openapi({ description: 'One entry per image, each kind at most once' }),
  })
  .strict()
  .openapi('CreateUploadsRequest');

const UploadTargetSchema = z
  .object({
    id: z.string().openapi({ description: 'Name it in the verify', example: 'upl_mbq1x2c3d4e5f6g7h8i9j0k1' }),
    kind: z.enum(IMAGE_KINDS),
    method: z.literal('PUT'),
    url: z.string().openapi({
      description: 'Presigned S3 URL: PUT the file here, with exactly `headers` and `size` bytes',
      example:
        'https://idv-uploads.s3.eu-west-3.amazonaws.com/uploads/org_…/test/upl_…/front?X-Amz-Signature=…',
    }),
    headers: z
      .object({ 'content-type': z.enum(['image/jpeg', 'image/png', 'image/webp']) })
      .openapi({ description: 'Headers the PUT must carry (the signature covers them)' }),
    size: z.number().int(),
    expires_at: z.string().openapi({
      description: 'When the URL stops accepting the PUT (10 minutes)',
      example: '2026-11-21T08:10:00.000Z',
    }),
    usable_until: z.string().openapi({
      description: 'Until when a verify may name the upload (1 hour); then it is deleted',
      example: '2026-11-21T09:00:00.000Z',
    }),
  })
  .openapi('UploadTarget');

export const CreatedUploadsSchema = z
  .object({ uploads: z.array(UploadTargetSchema) })
  .openapi('CreatedUploads');

const UploadId = z.string().regex(UPLOAD_ID, 'an upload id (upl_…)');

/** A verify that names uploads instead of carrying files. */
export const VerifyUploadsBody = z
  .object({
    front: UploadId.openapi({
      description: 'The upload of the identity page, card front or paper card page',
    }),
    back: UploadId.optional().openapi({ description: 'The upload of the card back' }),
    selfie: UploadId.optional().openapi({ description: 'The upload of the selfie' }),
  })
  .strict()
  .openapi('VerifyUploadsRequest', {
    description:
      'The images as direct uploads (POST /v1/uploads): each image kind names the upload made for it. ' +
      'Uploads are single use and belong to the key (or session) that made them.',
  });

export type VerifyUploads = z.infer<typeof VerifyUploadsBody>;

/** A reference to the registered schema, for a body the handler parses itself. */
export const VerifyUploadsRef = { $ref: '#/components/schemas/VerifyUploadsRequest' } as never;

/** True when the request carries JSON (named uploads) rather than multipart files. */
export function isJsonBody(c: Context): boolean {
  return /^application\/json\b/i.test(c.req.header('content-type') ?? '');
}

/** Reads and checks a verify's JSON body of upload ids. */
export async function readVerifyUploads(c: Context): Promise<VerifyUploads> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new ApiError('invalid_request', 'the request body is not valid JSON');
  }
  const parsed = VerifyUploadsBody.safeParse(body);
  if (!parsed.success) throw new ApiError('invalid_request', describeZodError(parsed.error, 'body'));
  return parsed.data;
}
