import type { IdvClient } from './index.ts';

/**
 * Verifies images of any size the API allows (12 MiB each). Small sets go in one multipart
 * POST /v1/verify; larger ones through direct uploads (POST /v1/uploads, a presigned PUT per
 * image straight to storage, then POST /v1/verify naming them), because the API gateway caps a
 * request at 6 MB once base64-encoded, about 4.5 MB of images.
 */
export const MULTIPART_LIMIT_BYTES = 4 * 1024 * 1024;

export interface VerifyImages {
  front: Blob;
  back?: Blob;
  selfie?: Blob;
}

export interface VerifyImagesOptions {
  idempotencyKey?: string;
  /** Always (true) or never (false) the upload path; by default, by the images' total size. */
  direct?: boolean;
  /** The fetch used for the PUTs to storage (the client's own calls use its own). */
  fetch?: typeof fetch;
}

const TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
type ImageType = (typeof TYPES)[number];

/** The verify's result as openapi-fetch gives it: `data` or the envelope in `error`. */
export async function verifyImages(idv: IdvClient, images: VerifyImages, options: VerifyImagesOptions = {}) {
  const parts = Object.entries(images).filter((e): e is [keyof VerifyImages, Blob] => e[1] instanceof Blob);
  const total = parts.reduce((sum, [, blob]) => sum + blob.size, 0);
  const headers = options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {};
  if (!(options.direct ?? total > MULTIPART_LIMIT_BYTES)) {
    return idv.POST('/v1/verify', { body: images, params: { header: headers } });
  }
  const asked = await idv.POST('/v1/uploads', {
    body: {
      images: parts.map(([kind, blob]) => ({ kind, content_type: imageType(blob), size: blob.size })),
    },
  });
  if (!asked.data) return { data: undefined, error: asked.error, response: asked.response };
  const put = options.fetch ?? fetch;
  await Promise.all(
    asked.data.uploads.map(async (target) => {
      const res = await put(target.url, {
        method: 'PUT',
        headers: target.headers,
        body: images[target.kind as keyof VerifyImages] as Blob,
      });
      // Storage answers in its own XML, never the API's envelope: a failure here is thrown.
      if (!res.ok) throw new Error(`upload of ${target.kind} failed: storage answered ${res.status}`);
    }),
  );
  const named = Object.fromEntries(asked.data.uploads.map((t) => [t.kind, t.id])) as {
    front: string;
    back?: string;
    selfie?: string;
  };
  return idv.POST('/v1/verify', {
    body: named,
    params: { header: headers },
    // The client's serializer sends an object without Blob parts as JSON.
    headers: { 'content-type': 'application/json' },
  });
}

/** The declared type: the Blob's own when it is one the API takes (JPEG by default). */
function imageType(blob: Blob): ImageType {
  return (TYPES as readonly string[]).includes(blob.type) ? (blob.type as ImageType) : 'image/jpeg';
}
