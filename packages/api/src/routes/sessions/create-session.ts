import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { nowOf } from '../../deps.ts';
import { authOf } from '../../http/auth.ts';
import type { ApiApp, AppEnv } from '../../http/env.ts';
import { AUTHENTICATED_ERRORS, errorResponses, jsonResponse } from '../../openapi/common.ts';
import { openSession } from '../../services/sessions.ts';
import { SESSIONS_SERVER } from './group.ts';
import { CreatedSessionSchema, CreateSessionBody, SESSION_TTL, sessionView } from './schemas.ts';

export const createSessionRoute = createRoute({
  operationId: 'createSession',
  method: 'post',
  path: '/v1/sessions',
  summary: 'Open a capture session',
  description:
    "Opens a session for an end user's browser or app. Hand the `client_token` (or the hosted page `url`) to " +
    'the end user: it uploads the photos once, within `ttl_seconds` (60–3600, default 900). The session takes ' +
    'the mode of the key. The result arrives by webhook and through GET /v1/sessions/{id}.',
  ...SESSIONS_SERVER,
  request: { body: { required: false, content: { 'application/json': { schema: CreateSessionBody } } } },
  responses: {
    201: jsonResponse('The session, with its client token', CreatedSessionSchema),
    ...errorResponses('invalid_request', ...AUTHENTICATED_ERRORS),
  },
});

export const createSession: RouteHandler<typeof createSessionRoute, AppEnv> = async (c) => {
  const { deps } = c.var;
  const auth = authOf(c);
  const body = c.req.valid('json') ?? {};
  const now = nowOf(deps);
  const { record, clientToken } = await openSession(deps, {
    orgId: auth.orgId,
    appId: auth.appId,
    mode: auth.mode,
    keyId: auth.keyId,
    reference: body.reference ?? null,
    documentType: body.document_type ?? null,
    ttlSeconds: body.ttl_seconds ?? SESSION_TTL.default,
  });
  c.set('resourceId', record.id);
  return c.json(
    { ...sessionView(record, { baseUrl: deps.baseUrl, now, clientToken }), client_token: clientToken },
    201,
  );
};

export function registerCreateSession(app: ApiApp) {
  app.openapi(createSessionRoute, createSession);
}
