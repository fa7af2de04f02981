import { type ImageKind, isImageKind } from '@idv/core';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { ApiError } from '../http/api-error.ts';

/** Spec: a signed image URL is valid 5 minutes. */
export const IMAGE_URL_TTL_SECONDS = 300;

export interface ImageGrant {
  verificationId: string;
  kind: ImageKind;
  orgId: string;
  /** Who asked for the URL (key id or console user), for the audit of views. */
  issuedTo: string;
}

/**
 * Stored images are encrypted by the application, so a presigned S3 URL would hand out
 * ciphertext. The URL points to the API instead, carrying a short-lived signed token (HS256
 * with the service's own key); the API checks it, records the view and decrypts.
 */
export async function signImageUrl(baseUrl: string, key: Uint8Array, grant: ImageGrant, now: Date) {
  const iat = Math.floor(now.getTime() / 1000);
  const token = await new SignJWT({
    vrf: grant.verificationId,
    kind: grant.kind,
    org: grant.orgId,
    sub: grant.issuedTo,
  })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(iat)
    .setExpirationTime(iat + IMAGE_URL_TTL_SECONDS)
    .setAudience('image')
    .sign(key);
  return {
    url: `${baseUrl}/v1/image-content/${token}`,
    expires_at: new Date((iat + IMAGE_URL_TTL_SECONDS) * 1000).toISOString(),
  };
}

export async function readImageGrant(token: string, key: Uint8Array, now: Date): Promise<ImageGrant> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      audience: 'image',
      currentDate: now,
    });
    const { vrf, kind, org, sub } = payload as Record<string, unknown>;
    if (typeof vrf !== 'string' || typeof org !== 'string' || typeof sub !== 'string' || !isImageKind(kind)) {
      throw new ApiError('not_found', 'unknown image link');
    }
    return { verificationId: vrf, kind, orgId: org, issuedTo: sub };
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof joseErrors.JWTExpired)
      throw new ApiError('image_gone', 'this image link has expired; ask for a new one');
    throw new ApiError('not_found', 'unknown image link');
  }
}

export function requireUrlKey(key: Uint8Array | undefined): Uint8Array {
  if (!key || key.byteLength < 32) throw new ApiError('internal_error', 'image URLs are not configured');
  return key;
}
