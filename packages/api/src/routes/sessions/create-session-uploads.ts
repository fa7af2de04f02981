import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { ApiError } from '../../http/api-error.ts';
import { limitPerSession, sessionOf } from '../../http/client-token-auth.ts';
import type { ApiApp, AppEnv } from '../../http/env.ts';
import { errorResponses, jsonResponse } from '../../openapi/common.ts';
import { createUploads } from '../../services/uploads.ts';
import { CreatedUploadsSchema, CreateUploadsBody } from '../uploads/schemas.ts';
import { SESSIONS_BROWSER } from './group.ts';
import { SessionIdParam } from './schemas.ts';

export const createSessionUploadsRoute = createRoute({
  operationId: 'createSessionUploads',
  method: 'post',
  path: '/v1/sessions/{id}/uploads',
  summary: 'Get upload targets for a session’s photos (browser)',
  description:
    'As POST /v1/uploads, with the session’s client token (CORS is open): presigned PUT targets for the ' +
    'photos, which then go straight to storage; POST /v1/sessions/{id}/verify with a JSON body naming the ' +
    'upload ids completes the session. The uploads belong to this session only. The web SDK and the hosted ' +
    'page always take this path. 12 requests per minute, counted apart from the uploads.',
  ...SESSIONS_BROWSER,
  middleware: [...SESSIONS_BROWSER.middleware, limitPerSession('targets')],
  request: {
    params: SessionIdParam,
    body: { required: true, content: { 'application/json': { schema: CreateUploadsBody } } },
  },
  responses: {
    201: jsonResponse('One presigned PUT target per photo', CreatedUploadsSchema),
    ...errorResponses(
      'invalid_request',
      'unauthorized',
      'not_found',
      'session_completed',
      'session_expired',
      'image_too_large',
      'rate_limited',
      'service_unavailable',
    ),
  },
});

export const createSessionUploads: RouteHandler<typeof createSessionUploadsRoute, AppEnv> = async (c) => {
  const { deps } = c.var;
  const session = sessionOf(c);
  // A completed or expired session was already refused by the client-token middleware.
  const files = c.req.valid('json').images;
  if (session.document_type === 'passport' && files.some((f) => f.kind === 'back')) {
    throw new ApiError('invalid_request', 'back: this session expects a passport, which has no back');
  }
  const uploads = await createUploads(
    deps,
    { orgId: session.org_id, mode: session.mode, sessionId: session.id },
    files,
  );
  return c.json({ uploads }, 201);
};

export function registerCreateSessionUploads(app: ApiApp) {
  app.openapi(createSessionUploadsRoute, createSessionUploads);
}
