import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { ApiError } from '../../http/api-error.ts';
import { authOf } from '../../http/auth.ts';
import type { ApiApp, AppEnv } from '../../http/env.ts';
import { resourceResponses } from '../../openapi/common.ts';
import { issueImageUrl } from '../../services/image-access.ts';
import { VERIFICATIONS } from './group.ts';
import { ImageKindParam, ImageUrlSchema, VerificationIdParam } from './schemas.ts';

export const getVerificationImageRoute = createRoute({
  operationId: 'getVerificationImage',
  method: 'get',
  path: '/v1/verifications/{id}/images/{kind}',
  summary: 'Get a short-lived URL to a stored image',
  description:
    'Live keys only. Returns a URL valid 5 minutes to the decrypted image. Every URL issued and every view is ' +
    'recorded in the audit journal. 410 `image_gone` when the image was never stored or was purged after retention.',
  ...VERIFICATIONS,
  request: { params: VerificationIdParam.extend(ImageKindParam.shape) },
  responses: resourceResponses('A short-lived URL', ImageUrlSchema, 'live_only', 'image_gone'),
});

export const getVerificationImage: RouteHandler<typeof getVerificationImageRoute, AppEnv> = async (c) => {
  const { deps } = c.var;
  const auth = authOf(c);
  if (auth.mode !== 'live') throw new ApiError('live_only', 'test mode keeps no image; use a live key');
  const { id, kind } = c.req.valid('param');
  const record = await deps.store.verifications.get(auth.orgId, auth.mode, id);
  if (!record) throw new ApiError('not_found', `no verification ${id}`);
  c.set('resourceId', id);
  const signed = await issueImageUrl(deps, record, kind, auth.keyId);
  return c.json(signed, 200);
};

export function registerGetVerificationImage(app: ApiApp) {
  app.openapi(getVerificationImageRoute, getVerificationImage);
}
