import { type ApiKeyRecord, looksLikeClientToken } from '@idv/store';
import type { MiddlewareHandler } from 'hono';
import { type AppDeps, DEFAULT_RATE_LIMITS, nowOf } from '../deps.ts';
import { ApiError } from './api-error.ts';
import { clientIp } from './client-ip.ts';
import type { ApiApp, AppEnv, SecretKeyAuth } from './env.ts';
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
export const requireSecretKey: MiddlewareHandler<AppEnv> = async (c, next) => {
  const deps = c.get('deps');
  const limits = { ...DEFAULT_RATE_LIMITS, ...deps.limits };
  const now = nowOf(deps);
  const credential = bearerCredential(c.req.header('authorization'));
  const key = credential ? await deps.store.apiKeys.findActiveBySecret(credential) : null;
  if (!key) {
    await enforceRateLimit(c, deps.store, `ip#${clientIp(c)}`, limits.perIpPerMinute, now);
    throw new ApiError('unauthorized', secretKeyRefusal(credential));
  }
  c.set('auth', { kind: 'secret_key', keyId: key.id, orgId: key.org_id, appId: key.app_id, mode: key.mode });
  await enforceRateLimit(c, deps.store, `key#${key.id}`, limits.perKeyPerMinute, now);
  await noteKeyUse(deps, key, credential as string, now);
  await next();
};

/**
 * The key's "last used" in the console: written at most once a minute per key (the store
 * skips the write while the recorded use is recent), and never at the cost of the call.
 */
async function noteKeyUse(deps: AppDeps, key: ApiKeyRecord, secret: string, now: Date): Promise<void> {
  try {
    await deps.store.apiKeys.recordUse(key, secret, now);
  } catch (error) {
    console.error(JSON.stringify({ level: 'warn', msg: 'key use not recorded', error: String(error) }));
  }
}

/**
 * How a group of operations authenticates: the requirement written in the OpenAPI document
 * and the middleware that enforces it. Spread into a route definition; it runs as route
 * middleware (not `app.use`), so a wrong method on a known path still answers 405, not 401.
 * A client-token scheme (sessions) or a cookie scheme (console) is another constant like these.
 */
export interface AuthScheme {
  security: Record<string, string[]>[];
  middleware?: MiddlewareHandler<AppEnv>[];
}

/** Operations called with a secret key (vn_test_… or vn_live_…). */
export const SECRET_KEY_AUTH = {
  security: [{ SecretKey: [] }],
  middleware: [requireSecretKey],
} satisfies AuthScheme;

/** Operations that need no credential (the URL itself is the credential, or the data is public). */
export const NO_AUTH = { security: [], middleware: [] } satisfies AuthScheme;

/** Declares the security schemes the operations refer to, once per app. */
export function registerSecuritySchemes(app: ApiApp) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'SecretKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'A secret key: vn_test_… (test mode) or vn_live_… (live mode). Server side only.',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'ClientToken', {
    type: 'http',
    scheme: 'bearer',
    description:
      "A session's client token (vn_ct_…) from POST /v1/sessions: one session, single use, browser side.",
  });
}

/** The authenticated caller; only valid behind an authentication middleware. */
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
