/**
 * Every error code the API returns, with its HTTP status. The spec names some; DESIGN.md
 * fixes the rest. The envelope is always `{"error":{"code","message"}}` and nothing else.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  invalid_image: 400,
  unauthorized: 401,
  account_suspended: 402,
  forbidden: 403,
  live_not_enabled: 403,
  live_only: 403,
  not_found: 404,
  method_not_allowed: 405,
  idempotency_in_progress: 409,
  session_completed: 409,
  conflict: 409,
  image_gone: 410,
  session_expired: 410,
  image_too_large: 413,
  unsupported_media_type: 415,
  unreadable: 422,
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal_error: 500,
  analysis_unavailable: 503,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type ErrorStatus = (typeof ERROR_STATUS)[ErrorCode];

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string };
}

/**
 * Thrown by the API's middleware, handlers and services; handleError turns it into the envelope
 * with its status. Nothing below the API throws it: store and core return typed results.
 */
export class ApiError extends Error {
  readonly status: ErrorStatus;
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra response headers (e.g. retry-after on 429). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }

  toEnvelope(): ErrorEnvelope {
    return { error: { code: this.code, message: this.message } };
  }
}
