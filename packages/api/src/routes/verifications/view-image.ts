import { type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppDeps } from '../../deps.ts';
import { DEFAULT_RATE_LIMITS } from '../../deps.ts';
import { ApiError } from '../../http/api-error.ts';
import { clientIp } from '../../http/client-ip.ts';
import type { AppEnv } from '../../http/env.ts';
import { enforceRateLimit } from '../../http/rate-limit.ts';
import { errorResponses } from '../../openapi/common.ts';
import { readImageGrant, requireUrlKey } from '../../services/image-urls.ts';

export function registerViewImage(app: OpenAPIHono<AppEnv>, deps: AppDeps) {
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/v1/image-content/{token}',
    summary: 'Fetch an image through a short-lived URL',
    description:
      'The URL returned by GET /v1/verifications/{id}/images/{kind}. The link is the credential; it expires after 5 minutes.',
    tags: ['Verifications'],
    request: { params: z.object({ token: z.string().openapi({ param: { name: 'token', in: 'path' } }) }) },
    responses: {
      200: {
        description: 'The image',
        content: { 'image/jpeg': { schema: { type: 'string', format: 'binary' } as never } },
      },
      ...errorResponses('not_found', 'image_gone', 'rate_limited'),
    },
  });

  app.get('/v1/image-content/:token', async (c) => {
    const now = deps.now?.() ?? new Date();
    // The link is the credential: calls are limited per IP like any call without a key.
    await enforceRateLimit(
      c,
      deps.store,
      `ip#${clientIp(c)}`,
      deps.limits?.perIpPerMinute ?? DEFAULT_RATE_LIMITS.perIpPerMinute,
      now,
    );
    const grant = await readImageGrant(c.req.param('token'), requireUrlKey(deps.urlSigningKey), now);
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
  });
}
