import type { ImageKind } from '@idv/core';
import type { VerificationRecord } from '@idv/store';
import { type AppDeps, nowOf } from '../deps.ts';
import { ApiError } from '../http/api-error.ts';
import { requireUrlKey, signImageUrl } from './image-urls.ts';

/**
 * Issues a short-lived URL to one stored image of a verification the caller may read, and
 * records the issue in the audit journal (the view itself is recorded when the URL is fetched).
 * Shared by the API's images route (a live key) and the console (a signed-in user).
 */
export async function issueImageUrl(
  deps: AppDeps,
  record: VerificationRecord,
  kind: ImageKind,
  /** Who asks: a key id or a console user id. */
  actor: string,
): Promise<{ url: string; expires_at: string }> {
  const id = record.verification.id;
  if (!record.images[kind] || record.images_purged_at) {
    throw new ApiError(
      'image_gone',
      `the ${kind} image of ${id} was never stored or has been deleted after retention`,
    );
  }
  const now = nowOf(deps);
  const signed = await signImageUrl(
    deps.baseUrl,
    requireUrlKey(deps.urlSigningKey),
    { verificationId: id, kind, orgId: record.org_id, issuedTo: actor },
    now,
  );
  await deps.store.audit.record(
    {
      org_id: record.org_id,
      action: 'image_url_issued',
      actor,
      resource_id: id,
      details: { kind, expires_at: signed.expires_at },
    },
    now,
  );
  return signed;
}
