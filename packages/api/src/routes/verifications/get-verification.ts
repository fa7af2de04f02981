import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps } from '../../deps.ts';
import { ApiError } from '../../http/api-error.ts';
import { authOf } from '../../http/auth.ts';
import type { AppEnv } from '../../http/env.ts';
import { AUTHENTICATED_ERRORS, errorResponses, jsonResponse, secretKeyAuth } from '../../openapi/common.ts';
import { VerificationIdParam, VerificationResponse } from '../../openapi/verification.ts';

const route = (deps: AppDeps) =>
  createRoute({
    method: 'get',
    path: '/v1/verifications/{id}',
    summary: 'Read a verification',
    description:
      'A verification of your organisation, in the mode of the key used. `final_verdict` is set once a reviewer decided.',
    tags: ['Verifications'],
    ...secretKeyAuth(deps),
    request: { params: VerificationIdParam },
    responses: {
      200: jsonResponse('The verification', VerificationResponse),
      ...errorResponses('invalid_request', 'not_found', ...AUTHENTICATED_ERRORS),
    },
  });

export function registerGetVerification(app: OpenAPIHono<AppEnv>, deps: AppDeps) {
  app.openapi(route(deps), async (c) => {
    const auth = authOf(c);
    const { id } = c.req.valid('param');
    const record = await deps.store.verifications.get(auth.orgId, auth.mode, id);
    // Another organisation's id, or the other mode's, is simply not found: never a leak.
    if (!record) throw new ApiError('not_found', `no verification ${id}`);
    c.set('resourceId', id);
    return c.json(record.verification, 200);
  });
}
