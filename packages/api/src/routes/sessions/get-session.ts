import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import { ApiError } from '@idv/core';
import type { AppDeps } from '../../deps.ts';
import { authOf } from '../../http/auth.ts';
import type { AppEnv } from '../../http/env.ts';
import { AUTHENTICATED_ERRORS, errorResponses, jsonResponse, secretKeyAuth } from '../../openapi/common.ts';
import { SessionIdParam, SessionSchema, sessionView } from './schemas.ts';

const route = (deps: AppDeps) =>
  createRoute({
    method: 'get',
    path: '/v1/sessions/{id}',
    summary: 'Read a session',
    description:
      'A session of your organisation in the mode of the key: `status` (open, completed, expired), your `reference`, ' +
      'the imposed `document_type`, and once completed its verification. Secret key only; the client token is never shown again.',
    tags: ['Sessions'],
    ...secretKeyAuth(deps),
    request: { params: SessionIdParam },
    responses: {
      200: jsonResponse('The session', SessionSchema),
      ...errorResponses('invalid_request', 'not_found', ...AUTHENTICATED_ERRORS),
    },
  });

export function registerGetSession(app: OpenAPIHono<AppEnv>, deps: AppDeps) {
  app.openapi(route(deps), async (c) => {
    const auth = authOf(c);
    const { id } = c.req.valid('param');
    const record = await deps.store.sessions.get(auth.orgId, auth.mode, id);
    if (!record) throw new ApiError('not_found', `no session ${id}`);
    const verification = record.verification_id
      ? ((await deps.store.verifications.get(auth.orgId, auth.mode, record.verification_id))?.verification ??
        null)
      : null;
    c.set('resourceId', id);
    return c.json(
      sessionView(record, { baseUrl: deps.baseUrl, now: deps.now?.() ?? new Date(), verification }),
      200,
    );
  });
}
