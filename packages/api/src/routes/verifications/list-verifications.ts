import { createRoute, type OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps } from '../../deps.ts';
import { authOf } from '../../http/auth.ts';
import type { AppEnv } from '../../http/env.ts';
import { pageOrBadCursor } from '../../http/page.ts';
import {
  AUTHENTICATED_ERRORS,
  errorResponses,
  jsonResponse,
  PaginationQuery,
  pageOf,
  secretKeyAuth,
} from '../../openapi/common.ts';
import { VerificationResponse } from '../../openapi/verification.ts';

const route = (deps: AppDeps) =>
  createRoute({
    method: 'get',
    path: '/v1/verifications',
    summary: 'List verifications',
    description: 'Verifications of your organisation in the mode of the key used, newest first.',
    tags: ['Verifications'],
    ...secretKeyAuth(deps),
    request: { query: PaginationQuery },
    responses: {
      200: jsonResponse('A page of verifications', pageOf(VerificationResponse)),
      ...errorResponses('invalid_request', ...AUTHENTICATED_ERRORS),
    },
  });

export function registerListVerifications(app: OpenAPIHono<AppEnv>, deps: AppDeps) {
  app.openapi(route(deps), async (c) => {
    const auth = authOf(c);
    const { limit, cursor } = c.req.valid('query');
    const page = pageOrBadCursor(await deps.store.verifications.list(auth.orgId, auth.mode, limit, cursor));
    return c.json({ data: page.data.map((r) => r.verification), next_cursor: page.next_cursor }, 200);
  });
}
