import { ApiError } from '@idv/core';
import { looksLikeSecretKey, type SessionRecord, sessionStatus } from '@idv/store';
import type { Context, MiddlewareHandler } from 'hono';
import { type AppDeps, DEFAULT_RATE_LIMITS } from '../deps.ts';
import { bearerCredential } from './auth.ts';
import { clientIp } from './client-ip.ts';
import type { AppEnv } from './env.ts';
import { enforceRateLimit } from './rate-limit.ts';

/**
 * Client-token authentication for the browser routes of one session (`/v1/sessions/{id}/…`).
 * The token must be the one issued for the session in the path; a secret key is refused here
 * as a client token is refused on the secret-key routes. Calls without a valid token count
 * against the caller's IP (as for keys). An expired session answers 410, a completed one 409:
 * the token is spent.
 */
export function requireClientToken(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const limits = { ...DEFAULT_RATE_LIMITS, ...deps.limits };
  return async (c, next) => {
    const now = deps.now?.() ?? new Date();
    const credential = bearerCredential(c.req.header('authorization'));
    const sessionId = c.req.param('id') ?? '';
    const session =
      credential && /^ses_[a-z0-9]{1,64}$/.test(sessionId)
        ? await deps.store.sessions.findByClientToken(sessionId, credential)
        : null;
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
    if (status === 'expired')
      throw new ApiError('session_expired', 'this session has expired; open a new one');
    if (status === 'completed')
      throw new ApiError('session_completed', 'this session is completed; its client token was used');
    await next();
  };
}

function refusal(credential: string | null): string {
  if (!credential) return 'send the session\'s client token as "Authorization: Bearer vn_ct_…"';
  if (looksLikeSecretKey(credential))
    return "this route takes the session's client token (vn_ct_…), never a secret key";
  return 'the client token is unknown or belongs to another session';
}

/** Counts one call of a session helper or upload against the session's own allowance. */
export async function limitPerSession(
  c: Context<AppEnv>,
  deps: AppDeps,
  route: 'upload' | 'precheck' | 'mrz',
): Promise<void> {
  const limits = { ...DEFAULT_RATE_LIMITS, ...deps.limits };
  const limit = route === 'upload' ? limits.sessionUploadsPerMinute : limits.sessionHelpersPerMinute;
  await enforceRateLimit(c, deps.store, `ses#${route}#${sessionOf(c).id}`, limit, deps.now?.() ?? new Date());
}

/** The session behind requireClientToken. */
export function sessionOf(c: { get(key: 'session'): SessionRecord | undefined }): SessionRecord {
  const session = c.get('session');
  if (!session) throw new ApiError('unauthorized', 'authentication required');
  return session;
}
