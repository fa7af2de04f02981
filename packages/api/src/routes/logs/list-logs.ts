import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
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

export const RequestLogEntrySchema = z
  .object({
    id: z.string().openapi({ example: 'req_mbq1x2c3d4e5f6g7h8i9j0k1' }),
    method: z.string().openapi({ example: 'POST' }),
    route: z.string().openapi({ example: '/v1/verify' }),
    status: z.number().int().openapi({ example: 200 }),
    error_code: z.string().nullable().openapi({ example: null }),
    key: z.string().nullable().openapi({
      description: 'Id of the key used (never the key itself)',
      example: 'key_mbq1x2c3d4e5f6g7h8i9j0k1',
    }),
    mode: z.enum(['test', 'live']),
    duration_ms: z.number().int().min(0),
    resource_id: z.string().nullable().openapi({ example: 'vrf_mbq1x2c3d4e5f6g7h8i9j0k1' }),
    created_at: z.string().openapi({ example: '2026-11-21T08:00:00.000Z' }),
  })
  .openapi('RequestLogEntry');

const route = (deps: AppDeps) =>
  createRoute({
    method: 'get',
    path: '/v1/logs',
    summary: 'List recent API calls',
    description:
      "Metadata of recent calls made with the organisation's keys, in the mode of the key used, newest first. " +
      'Never a request or response body. Kept 90 days.',
    tags: ['Logs'],
    ...secretKeyAuth(deps),
    request: {
      query: PaginationQuery.extend({
        status: z.coerce
          .number()
          .int()
          .min(100)
          .max(599)
          .optional()
          .openapi({ description: 'Only calls answered with this status' }),
        route: z
          .string()
          .max(200)
          .optional()
          .openapi({ description: 'Only this route pattern, e.g. /v1/verify' }),
      }),
    },
    responses: {
      200: jsonResponse('A page of log entries', pageOf(RequestLogEntrySchema)),
      ...errorResponses('invalid_request', ...AUTHENTICATED_ERRORS),
    },
  });

export function registerListLogs(app: OpenAPIHono<AppEnv>, deps: AppDeps) {
  app.openapi(route(deps), async (c) => {
    const auth = authOf(c);
    const { limit, cursor, status, route: routeFilter } = c.req.valid('query');
    const page = pageOrBadCursor(
      await deps.store.requestLogs.list({
        orgId: auth.orgId,
        mode: auth.mode,
        limit,
        cursor,
        status,
        route: routeFilter,
      }),
    );
    return c.json(page, 200);
  });
}
