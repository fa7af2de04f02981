import { looksLikeSecretKey, type SessionRecord, sessionStatus } from '@idv/store';
import type { Context, MiddlewareHandler } from 'hono';
import { DEFAULT_RATE_LIMITS, nowOf } from '../deps.ts';
import { ApiError } from './api-error.ts';
import type { AuthScheme } from './auth.ts';
import { bearerCredential } from './auth.ts';
import { clientIp } from './client-ip.ts';
import type { AppEnv } from './env.ts';
import { enforceRateLimit } from './rate-limit.ts';
import { isResourceId } from './resource-id.ts';

/**
 * Client-token authentication for the browser routes of one session (`/v1/sessions/{id}/…`).
 * The token must be the one issued for the session in the path; a secret key is refused here
 * as a client token is refused on the secret-key routes. Calls without a valid token count
 * against the caller's IP (as for keys). An expired session answers 410, a completed one 409:
 * the token is spent.
 */
export const requireClientToken: MiddlewareHandler<AppEnv> = async (c, next) => {
  const deps = c.get('deps');
  const limits = { ...DEFAULT_RATE_LIMITS, ...deps.limits };
  const now = nowOf(deps);
  const credential = bearerCredential(c.req.header('authorization'));
  const sessionId = c.req.param('id');
  // The path id is checked here, before the token lookup reads the store: a malformed one names
  // no session (404, as on every route), whatever the credential.
  if (!isResourceId(sessionId, 'ses')) throw new ApiError('not_found', 'id: must be a session id (ses_…)');
  const session = credential ? await deps.store.sessions.findByClientToken(sessionId, credential) : null;
  if (!session) {
    await enforceRateLimit(c, deps.store, `ip#${clientIp(c)}`, limits.perIpPerMinute, now);
    throw new ApiError('unauthorized', refusal(credential));
  }
  c.set('auth', {
    kind: 'client_token',
    keyId: session.id,
    sessionId: session.id,
    orgId: session.org_id,
    appId: session.app_id,
    mode: session.mode,
  });
  c.set('session', session);
  c.set('resourceId', session.id);
  const status = sessionStatus(session, now);
  if (status === 'expired') throw new ApiError('session_expired', 'this session has expired; open a new one');
  if (status === 'completed')
    throw new ApiError('session_completed', 'this session is completed; its client token was used');
  await next();
};

/** Operations called by the end user's browser or app with a session's client token (vn_ct_…). */
export const CLIENT_TOKEN_AUTH = {
  security: [{ ClientToken: [] }],
  middleware: [requireClientToken],
} satisfies AuthScheme;

function refusal(credential: string | null): string {
  if (!credential) return 'send the session\'s client token as "Authorization: Bearer vn_ct_…"';
  if (looksLikeSecretKey(credential))
    return "this route takes the session's client token (vn_ct_…), never a secret key";
  return 'the client token is unknown or belongs to another session';
}

/** The session routes with an allowance of their own (`targets`: direct-upload targets). */
type SessionRoute = 'upload' | 'targets' | 'precheck' | 'mrz';

/**
 * Route middleware counting each call against the session's own allowance for that route
 * (spec: uploads 12 per minute; pre-check and chip key 20 per minute per session each).
 */
export function limitPerSession(route: SessionRoute): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await countSessionCall(c, route);
    await next();
  };
}

async function countSessionCall(c: Context<AppEnv>, route: SessionRoute) {
  const deps = c.get('deps');
  const limits = { ...DEFAULT_RATE_LIMITS, ...deps.limits };
  // Asking for upload targets is part of an upload: the same allowance, counted apart.
  const limit =
    route === 'upload' || route === 'targets'
      ? limits.sessionUploadsPerMinute
      : limits.sessionHelpersPerMinute;
  await enforceRateLimit(c, deps.store, `ses#${route}#${sessionOf(c).id}`, limit, nowOf(deps));
}

/** The session behind requireClientToken. */
export function sessionOf(c: { get(key: 'session'): SessionRecord | undefined }): SessionRecord {
  const session = c.get('session');
  if (!session) throw new ApiError('unauthorized', 'authentication required');
  return session;
}
