import type { RateLimitResult, Store } from '@idv/store';
import type { Context } from 'hono';
import { ApiError } from './api-error.ts';
import type { AppEnv } from './env.ts';

/**
 * Counts one call against `scope` and sets the spec's headers. Over the limit it throws
 * 429 `rate_limited` with `retry-after` (seconds until the window resets).
 */
export async function enforceRateLimit(
  c: Context<AppEnv>,
  store: Store,
  scope: string,
  limit: number,
  now: Date,
): Promise<RateLimitResult> {
  const result = await store.rateLimits.hit(scope, limit, 60, now);
  const headers = {
    'x-ratelimit-limit': String(result.limit),
    'x-ratelimit-remaining': String(result.remaining),
    'x-ratelimit-reset': String(result.resetAt),
  };
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  if (!result.allowed) {
    const retryAfter = Math.max(1, result.resetAt - Math.floor(now.getTime() / 1000));
    throw new ApiError(
      'rate_limited',
      `rate limit of ${limit} calls per minute exceeded; retry in ${retryAfter} s`,
      {
        ...headers,
        'retry-after': String(retryAfter),
      },
    );
  }
  return result;
}
