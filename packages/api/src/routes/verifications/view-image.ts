import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { DEFAULT_RATE_LIMITS, nowOf } from '../../deps.ts';
import { ApiError } from '../../http/api-error.ts';
import { NO_AUTH } from '../../http/auth.ts';
import { clientIp } from '../../http/client-ip.ts';
import type { ApiApp, AppEnv } from '../../http/env.ts';
import { enforceRateLimit } from '../../http/rate-limit.ts';
import { errorResponses, RATE_LIMIT_HEADERS } from '../../openapi/common.ts';
import { readImageGrant, requireUrlKey } from '../../services/image-urls.ts';
import { VERIFICATIONS } from './group.ts';
import { ImageTokenParam } from './schemas.ts';

export const viewImageRoute = createRoute({
  operationId: 'getImageContent',
  method: 'get',
  path: '/v1/image-content/{token}',
  summary: 'Fetch an image through a short-lived URL',
  description:
    'The URL returned by GET /v1/verifications/{id}/images/{kind}. The link is the credential; it expires after 5 minutes.',
  ...VERIFICATIONS,
  // The link is the credential: no key (and no key middleware) for this one.
  ...NO_AUTH,
  request: { params: ImageTokenParam },
  responses: {
    200: {
      description: 'The image',
      headers: RATE_LIMIT_HEADERS,
      content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } as never } },
    },
    ...errorResponses('not_found', 'image_gone', 'rate_limited', 'service_unavailable'),
  },
});

export const viewImage: RouteHandler<typeof viewImageRoute, AppEnv> = async (c) => {
  const { deps } = c.var;
  const now = nowOf(deps);
  // The link is the credential: calls are limited per IP like any call without a key.
  await enforceRateLimit(
    c,
    deps.store,
    `ip#${clientIp(c)}`,
    deps.limits?.perIpPerMinute ?? DEFAULT_RATE_LIMITS.perIpPerMinute,
    now,
  );
  const grant = await readImageGrant(c.req.valid('param').token, requireUrlKey(deps.urlSigningKey), now);
  const record = await deps.store.verifications.getById(grant.verificationId);
  if (!record || record.org_id !== grant.orgId) throw new ApiError('not_found', 'unknown image link');
  const stored = record.images[grant.kind];
  const image = stored && !record.images_purged_at ? await deps.store.images.get(stored.key) : null;
  if (!image) throw new ApiError('image_gone', 'this image has been deleted after the retention period');
  await deps.store.audit.record(
    {
      org_id: grant.orgId,
      action: 'image_viewed',
      actor: grant.issuedTo,
      resource_id: grant.verificationId,
      details: { kind: grant.kind },
    },
    now,
  );
  return c.body(new Uint8Array(image.bytes), 200, {
    'content-type': image.contentType,
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
  });
};

export function registerViewImage(app: ApiApp) {
  app.openapi(viewImageRoute, viewImage);
}
