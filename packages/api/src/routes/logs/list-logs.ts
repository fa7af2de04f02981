import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { authOf } from '../../http/auth.ts';
import type { ApiApp, AppEnv } from '../../http/env.ts';
import { pageOrBadCursor } from '../../http/page.ts';
import { PaginationQuery, pageResponses } from '../../openapi/common.ts';
import { LOGS } from './group.ts';
import { LogFilters, RequestLogEntrySchema } from './schemas.ts';

export const listLogsRoute = createRoute({
  operationId: 'listLogs',
  method: 'get',
  path: '/v1/logs',
  summary: 'List recent API calls',
  description:
    "Metadata of recent calls made with the organisation's keys, in the mode of the key used, newest first. " +
    'Never a request or response body. Kept 90 days.',
  ...LOGS,
  request: { query: PaginationQuery.extend(LogFilters.shape) },
  responses: pageResponses('A page of log entries', RequestLogEntrySchema),
});

export const listLogs: RouteHandler<typeof listLogsRoute, AppEnv> = async (c) => {
  const auth = authOf(c);
  const { limit, cursor, status, route } = c.req.valid('query');
  const page = pageOrBadCursor(
    await c.var.deps.store.requestLogs.list({
      orgId: auth.orgId,
      mode: auth.mode,
      limit,
      cursor,
      status,
      route,
    }),
  );
  return c.json(page, 200);
};

export function registerListLogs(app: ApiApp) {
  app.openapi(listLogsRoute, listLogs);
}
