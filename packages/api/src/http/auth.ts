import { ApiError } from '@idv/core';
import { looksLikeClientToken } from '@idv/store';
import type { MiddlewareHandler } from 'hono';
import { type AppDeps, DEFAULT_RATE_LIMITS } from '../deps.ts';
import { clientIp } from './client-ip.ts';
import type { AppEnv, SecretKeyAuth } from './env.ts';
import { enforceRateLimit } from './rate-limit.ts';

const BEARER = /^Bearer ([^\s]+)$/;

/** The credential after `Bearer `, or null when the header is absent or malformed. */
export function bearerCredential(header: string | undefined): string | null {
  const match = header ? BEARER.exec(header.trim()) : null;
  return match?.[1] ?? null;
}

/**
 * Secret-key authentication for the server-to-server API. Calls that do not present a valid
 * key are counted against the caller's IP address first (120/min), so guessing keys is
 * throttled; a valid key's calls are counted against the key (120/min).
 */
export function requireSecretKey(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const limits = { ...DEFAULT_RATE_LIMITS, ...deps.limits };
  return async (c, next) => {
    const now = deps.now?.() ?? new Date();
    const credential = bearerCredential(c.req.header('authorization'));
    const key = credential ? await deps.store.apiKeys.findActiveBySecret(credential) : null;
    if (!key) {
      await enforceRateLimit(c, deps.store, `ip#${clientIp(c)}`, limits.perIpPerMinute, now);
      throw new ApiError('unauthorized', secretKeyRefusal(credential));
    }
    c.set('auth', {
      kind: 'secret_key',
      keyId: key.id,
      orgId: key.org_id,
      appId: key.app_id,
      mode: key.mode,
    });
    await enforceRateLimit(c, deps.store, `key#${key.id}`, limits.perKeyPerMinute, now);
    await next();
  };
}

/** The authenticated caller; only valid behind requireSecretKey. */
export function authOf(c: { get(key: 'auth'): AppEnv['Variables']['auth'] }): SecretKeyAuth {
  const auth = c.get('auth');
  if (auth?.kind !== 'secret_key') throw new ApiError('unauthorized', 'authentication required');
  return auth;
}

function secretKeyRefusal(credential: string | null): string {
  if (!credential) return 'send a secret key as "Authorization: Bearer vn_test_…"';
  if (looksLikeClientToken(credential))
    return "this route takes a secret key; a session's client token only works on that session's upload routes";
  return 'the API key is unknown or revoked';
}
