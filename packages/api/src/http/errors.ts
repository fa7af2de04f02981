import { isStorageUnavailable } from '@idv/store';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ZodError } from 'zod';
import { ApiError, ERROR_STATUS, type ErrorCode } from './api-error.ts';
import type { AppEnv } from './env.ts';

/**
 * Seconds a client is told to wait after a 503 that names no other delay: long enough for a
 * restarted store or analyzer to answer, short enough for a user still waiting.
 */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * Sends the spec's error envelope — `{"error":{"code","message"}}` and nothing else. Every 503
 * says when to retry (`retry-after`), as a 429 does.
 */
export function errorResponse(
  c: Context<AppEnv>,
  code: ErrorCode,
  message: string,
  headers: Record<string, string> = {},
) {
  c.set('errorCode', code);
  if (ERROR_STATUS[code] === 503 && !('retry-after' in headers))
    c.header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  return c.json({ error: { code, message } }, ERROR_STATUS[code]);
}

/** A readable message naming the first bad field, e.g. "limit: must be at most 100". */
export function describeZodError(error: ZodError, where: string): string {
  const issue = error.issues[0];
  if (!issue) return `invalid ${where}`;
  const path = issue.path.length ? issue.path.join('.') : where;
  return `${path}: ${issue.message}`;
}

/** The app's onError: every thrown thing becomes the envelope; 500s never show internals. */
export function handleError(error: Error, c: Context<AppEnv>) {
  if (error instanceof ApiError) return errorResponse(c, error.code, error.message, error.headers);
  if (error instanceof HTTPException) {
    // Hono raises these for malformed bodies (e.g. invalid JSON) and similar request faults.
    const status = error.status;
    if (status === 401) return errorResponse(c, 'unauthorized', 'missing or invalid credential');
    if (status === 413) return errorResponse(c, 'image_too_large', 'request body too large');
    if (status >= 400 && status < 500)
      return errorResponse(c, 'invalid_request', error.message || 'malformed request');
  }
  if (isStorageUnavailable(error)) {
    // The table, the bucket or the queue could not be reached: the call changed nothing that
    // outlives it (writes are single transactions; stored images are cleaned up), so a retry is safe.
    console.error(
      JSON.stringify({
        level: 'error',
        request_id: c.get('requestId'),
        msg: 'storage unavailable',
        error: String(error),
      }),
    );
    return errorResponse(
      c,
      'service_unavailable',
      'the service is temporarily unavailable; retry in a moment',
    );
  }
  if ((error as { name?: string }).name === 'SyntaxError') {
    return errorResponse(c, 'invalid_request', 'request body is not valid JSON');
  }
  console.error(
    JSON.stringify({ level: 'error', request_id: c.get('requestId'), error: String(error.stack ?? error) }),
  );
  return errorResponse(c, 'internal_error', 'an unexpected error occurred; try again later');
}
