import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { ApiError } from '../../http/api-error.ts';
import { authOf } from '../../http/auth.ts';
import type { ApiApp, AppEnv } from '../../http/env.ts';
import { resourceResponses } from '../../openapi/common.ts';
import { VERIFICATIONS } from './group.ts';
import { VerificationIdParam, VerificationResponse } from './schemas.ts';

export const getVerificationRoute = createRoute({
  operationId: 'getVerification',
  method: 'get',
  path: '/v1/verifications/{id}',
  summary: 'Read a verification',
  description:
    'A verification of your organisation, in the mode of the key used. `final_verdict` is set once a reviewer decided.',
  ...VERIFICATIONS,
  request: { params: VerificationIdParam },
  responses: resourceResponses('The verification', VerificationResponse),
});

export const getVerification: RouteHandler<typeof getVerificationRoute, AppEnv> = async (c) => {
  const auth = authOf(c);
  const { id } = c.req.valid('param');
  const record = await c.var.deps.store.verifications.get(auth.orgId, auth.mode, id);
  // Another organisation's id, or the other mode's, is simply not found: never a leak.
  if (!record) throw new ApiError('not_found', `no verification ${id}`);
  c.set('resourceId', id);
  return c.json(record.verification, 200);
};

export function registerGetVerification(app: ApiApp) {
  app.openapi(getVerificationRoute, getVerification);
}
