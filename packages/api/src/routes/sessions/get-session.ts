import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { nowOf } from '../../deps.ts';
import { ApiError } from '../../http/api-error.ts';
import { authOf } from '../../http/auth.ts';
import type { ApiApp, AppEnv } from '../../http/env.ts';
import { AUTHENTICATED_ERRORS, errorResponses, jsonResponse } from '../../openapi/common.ts';
import { SESSIONS_SERVER } from './group.ts';
import { SessionIdParam, SessionSchema, sessionView } from './schemas.ts';

export const getSessionRoute = createRoute({
  operationId: 'getSession',
  method: 'get',
  path: '/v1/sessions/{id}',
  summary: 'Read a session',
  description:
    'A session of your organisation in the mode of the key: `status` (open, completed, expired), your `reference`, ' +
    'the imposed `document_type`, and once completed its verification. Secret key only; the client token is never shown again.',
  ...SESSIONS_SERVER,
  request: { params: SessionIdParam },
  responses: {
    200: jsonResponse('The session', SessionSchema),
    ...errorResponses('invalid_request', 'not_found', ...AUTHENTICATED_ERRORS),
  },
});

export const getSession: RouteHandler<typeof getSessionRoute, AppEnv> = async (c) => {
  const { deps } = c.var;
  const auth = authOf(c);
  const { id } = c.req.valid('param');
  const record = await deps.store.sessions.get(auth.orgId, auth.mode, id);
  // Another organisation's session, or the other mode's, is simply not found.
  if (!record) throw new ApiError('not_found', `no session ${id}`);
  const verification = record.verification_id
    ? ((await deps.store.verifications.get(auth.orgId, auth.mode, record.verification_id))?.verification ??
      null)
    : null;
  c.set('resourceId', id);
  return c.json(sessionView(record, { baseUrl: deps.baseUrl, now: nowOf(deps), verification }), 200);
};

export function registerGetSession(app: ApiApp) {
  app.openapi(getSessionRoute, getSession);
}
