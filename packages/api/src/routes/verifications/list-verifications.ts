import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { authOf } from '../../http/auth.ts';
import type { ApiApp, AppEnv } from '../../http/env.ts';
import { pageOrBadCursor } from '../../http/page.ts';
import { PaginationQuery, pageResponses } from '../../openapi/common.ts';
import { VERIFICATIONS } from './group.ts';
import { VerificationResponse } from './schemas.ts';

export const listVerificationsRoute = createRoute({
  operationId: 'listVerifications',
  method: 'get',
  path: '/v1/verifications',
  summary: 'List verifications',
  description: 'Verifications of your organisation in the mode of the key used, newest first.',
  ...VERIFICATIONS,
  request: { query: PaginationQuery },
  responses: pageResponses('A page of verifications', VerificationResponse),
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
