import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { IMAGE_KINDS } from '@idv/core';
import type { AppDeps } from '../../deps.ts';
import { ApiError } from '../../http/api-error.ts';
import { authOf } from '../../http/auth.ts';
import type { AppEnv } from '../../http/env.ts';
import {
  AUTHENTICATED_ERRORS,
  errorResponses,
  RATE_LIMIT_HEADERS,
  secretKeyAuth,
} from '../../openapi/common.ts';
import { VerificationIdParam } from '../../openapi/verification.ts';
import { requireUrlKey, signImageUrl } from '../../services/image-urls.ts';

const route = (deps: AppDeps) =>
  createRoute({
    method: 'get',
    path: '/v1/verifications/{id}/images/{kind}',
    summary: 'Get a short-lived URL to a stored image',
    description:
      'Live keys only. Returns a URL valid 5 minutes to the decrypted image. Every URL issued and every view is ' +
      'recorded in the audit journal. 410 `image_gone` when the image was never stored or was purged after retention.',
    tags: ['Verifications'],
    ...secretKeyAuth(deps),
    request: {
      params: VerificationIdParam.extend({
        kind: z.enum(IMAGE_KINDS).openapi({ param: { name: 'kind', in: 'path' }, example: 'front' }),
      }),
    },
    responses: {
      200: {
        description: 'A short-lived URL',
        headers: RATE_LIMIT_HEADERS,
        content: {
          'application/json': {
            schema: z.object({
              url: z
                .string()
                .openapi({ example: 'http://localhost:8787/v1/image-content/eyJhbGciOiJIUzI1NiJ9…' }),
              expires_at: z.string().openapi({ example: '2026-11-21T08:05:00.000Z' }),
            }),
          },
        },
      },
      ...errorResponses('invalid_request', 'live_only', 'not_found', 'image_gone', ...AUTHENTICATED_ERRORS),
    },
  });

export function registerGetVerificationImage(app: OpenAPIHono<AppEnv>, deps: AppDeps) {
  app.openapi(route(deps), async (c) => {
    const auth = authOf(c);
    if (auth.mode !== 'live') throw new ApiError('live_only', 'test mode keeps no image; use a live key');
    const { id, kind } = c.req.valid('param');
    const record = await deps.store.verifications.get(auth.orgId, auth.mode, id);
    if (!record) throw new ApiError('not_found', `no verification ${id}`);
    c.set('resourceId', id);
    if (!record.images[kind] || record.images_purged_at) {
      throw new ApiError(
        'image_gone',
        `the ${kind} image of ${id} was never stored or has been deleted after retention`,
      );
    }
    const now = deps.now?.() ?? new Date();
    const signed = await signImageUrl(
      deps.baseUrl,
      requireUrlKey(deps.urlSigningKey),
      { verificationId: id, kind, orgId: auth.orgId, issuedTo: auth.keyId },
      now,
    );
    await deps.store.audit.record(
      {
        org_id: auth.orgId,
        action: 'image_url_issued',
        actor: auth.keyId,
        resource_id: id,
        details: { kind, expires_at: signed.expires_at },
      },
      now,
    );
    return c.json(signed, 200);
  });
}
