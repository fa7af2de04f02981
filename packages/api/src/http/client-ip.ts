import type { Context } from 'hono';

/**
 * The caller's address, as seen by the platform: API Gateway's sourceIp on Lambda, the
 * socket's remote address under @hono/node-server. Headers such as X-Forwarded-For are not
 * trusted, so a caller cannot choose its own rate-limit bucket.
 */
export function clientIp(c: Context): string {
  const env = c.env as
    | {
        event?: { requestContext?: { http?: { sourceIp?: string } } };
        incoming?: { socket?: { remoteAddress?: string } };
      }
    | undefined;
  return env?.event?.requestContext?.http?.sourceIp ?? env?.incoming?.socket?.remoteAddress ?? 'unknown';
}
