/**
 * Whether an error from the AWS SDK means the service could not serve the call now (it could
 * not be reached, the connection broke, it timed out, it answered 5xx or throttled), as opposed
 * to a refusal of the call itself or a bug. The API answers the first kind with 503 and
 * `retry-after`: the same call may succeed in a moment, and nothing was half-written.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
  'ERR_SOCKET_CONNECTION_TIMEOUT',
]);

/** Error names the SDK gives to throttling and transient service faults. */
const TRANSIENT_NAMES = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'ThrottlingException',
  'Throttling',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'SlowDown',
  'ServiceUnavailable',
  'InternalServerError',
  'InternalError',
]);

interface SdkLikeError {
  name?: string;
  code?: string;
  cause?: unknown;
  errors?: unknown[];
  $fault?: string;
  $metadata?: { httpStatusCode?: number };
}

export function isStorageUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const e = error as SdkLikeError;
  if (e.code && NETWORK_CODES.has(e.code)) return true;
  if (e.name && TRANSIENT_NAMES.has(e.name)) return true;
  const status = e.$metadata?.httpStatusCode;
  if (e.$fault === 'server' && (status === undefined || status >= 500)) return true;
  // Node wraps several failed connection attempts (IPv4 and IPv6) in one AggregateError.
  if (Array.isArray(e.errors) && e.errors.some((inner) => isStorageUnavailable(inner, depth + 1)))
    return true;
  return isStorageUnavailable(e.cause, depth + 1);
}
