import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { authOf, SECRET_KEY_AUTH } from '../../http/auth.ts';
import type { ApiApp, AppEnv } from '../../http/env.ts';
import { pageOrBadCursor } from '../../http/page.ts';
import {
  AUTHENTICATED_ERRORS,
  errorResponses,
  jsonResponse,
  PaginationQuery,
  pageOf,
} from '../../openapi/common.ts';
import { VerificationResponse } from './schemas.ts';

export const listVerificationsRoute = createRoute({
  operationId: 'listVerifications',
  method: 'get',
  path: '/v1/verifications',
  summary: 'List verifications',
  description: 'Verifications of your organisation in the mode of the key used, newest first.',
  tags: ['Verifications'],
  ...SECRET_KEY_AUTH,
  request: { query: PaginationQuery },
  responses: {
    200: jsonResponse('A page of verifications', pageOf(VerificationResponse)),
    ...errorResponses('invalid_request', ...AUTHENTICATED_ERRORS),
  },
});

export const listVerifications: RouteHandler<typeof listVerificationsRoute, AppEnv> = async (c) => {
  const auth = authOf(c);
  const { limit, cursor } = c.req.valid('query');
  const page = pageOrBadCursor(
    await c.var.deps.store.verifications.list(auth.orgId, auth.mode, limit, cursor),
  );
  return c.json({ data: page.data.map((r) => r.verification), next_cursor: page.next_cursor }, 200);
};

export function registerListVerifications(app: ApiApp) {
  app.openapi(listVerificationsRoute, listVerifications);
}
