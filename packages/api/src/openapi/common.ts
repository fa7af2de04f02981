import { z } from '@hono/zod-openapi';
import { ERROR_STATUS, type ErrorCode } from '../http/api-error.ts';

/** Every code the API answers with (http/api-error.ts), so clients can switch on them exhaustively. */
const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES).openapi({ example: 'invalid_request' }),
      message: z.string().openapi({ example: 'limit: must be at most 100' }),
    }),
  })
  .openapi('Error', { description: 'Every error has exactly this shape.' });

/**
 * OpenAPI response entries for the errors a route can return. A 429 carries the headers the
 * rate limiter sets on it (http/rate-limit.ts): the window's figures and `retry-after`.
 */
export function errorResponses(...codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes)
    byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      status,
      {
        description: `Error: ${list.join(', ')}`,
        ...(status === ERROR_STATUS.rate_limited ? { headers: RATE_LIMITED_HEADERS } : {}),
        ...(status === ERROR_STATUS.analysis_unavailable ? { headers: ANALYSIS_UNAVAILABLE_HEADERS } : {}),
        content: { 'application/json': { schema: ErrorSchema } },
      },
    ]),
  );
}

/** Errors every authenticated route may return. */
export const AUTHENTICATED_ERRORS: ErrorCode[] = ['unauthorized', 'rate_limited', 'internal_error'];

export const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit': { description: 'Calls allowed per minute', schema: { type: 'integer' as const } },
  'x-ratelimit-remaining': {
    description: 'Calls left in the current minute',
    schema: { type: 'integer' as const },
  },
  'x-ratelimit-reset': {
    description: 'When the window resets (epoch seconds)',
    schema: { type: 'integer' as const },
  },
};

/** What a 429 answers with besides the envelope: the limit's figures and when to retry. */
export const RATE_LIMITED_HEADERS = {
  ...RATE_LIMIT_HEADERS,
  'retry-after': {
    description: 'Seconds to wait before calling again (until the window resets)',
    required: true,
    schema: { type: 'integer' as const, minimum: 1 },
  },
};

/** A 503 from a full analysis queue (services/analysis-queue.ts) says when to come back. */
export const ANALYSIS_UNAVAILABLE_HEADERS = {
  'retry-after': {
    description:
      'Seconds to wait before retrying, when the service is analysing as many verifications as it can hold',
    required: false,
    schema: { type: 'integer' as const, minimum: 1 },
  },
};

export const PaginationQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(20)
    .openapi({ description: 'Items per page, 1 to 100', example: 20 }),
  cursor: z.string().max(2048).optional().openapi({ description: 'The `next_cursor` of the previous page' }),
});

/** A JSON success response carrying the rate-limit headers. */
export function jsonResponse<T>(description: string, schema: T) {
  return { description, headers: RATE_LIMIT_HEADERS, content: { 'application/json': { schema } } };
}

/** A page of a list: `{ data, next_cursor }`, as every list endpoint answers. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), next_cursor: z.string().nullable() });
}

/** The responses of a list: a page of `item`, or the errors of a bad query or credential. */
export function pageResponses<T extends z.ZodType>(description: string, item: T) {
  return {
    200: jsonResponse(description, pageOf(item)),
    ...errorResponses('invalid_request', ...AUTHENTICATED_ERRORS),
  };
}

/**
 * The responses of an operation on one resource named in the path: `schema`, or a bad
 * query or body, an id not found or malformed (another organisation's included), a bad credential, and `more`.
 */
export function resourceResponses<T>(description: string, schema: T, ...more: ErrorCode[]) {
  return {
    200: jsonResponse(description, schema),
    ...errorResponses('invalid_request', ...more, 'not_found', ...AUTHENTICATED_ERRORS),
  };
}
