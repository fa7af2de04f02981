import { z } from '@hono/zod-openapi';

/** One entry of the request log, as GET /v1/logs lists it. */
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

/** The filters of GET /v1/logs, besides the page. */
export const LogFilters = z.object({
  status: z.coerce
    .number()
    .int()
    .min(100)
    .max(599)
    .optional()
    .openapi({ description: 'Only calls answered with this status' }),
  route: z.string().max(200).optional().openapi({ description: 'Only this route pattern, e.g. /v1/verify' }),
});
