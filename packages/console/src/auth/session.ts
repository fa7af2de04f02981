import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { jwtVerify, SignJWT } from 'jose';

export const SESSION_COOKIE = 'idv_console';
/** A console session lasts a working day; then the user signs in again. */
export const SESSION_SECONDS = 8 * 3600;

/** Organisation users and platform operators are separate accounts with separate sessions. */
export type AccountKind = 'user' | 'operator';

export interface SessionClaims {
  /** The account's email (accounts are keyed by it; the account is re-read on every request). */
  email: string;
  /** Which kind of account the email names; a user's session never opens operator pages. */
  kind: AccountKind;
  /** The CSRF token of this session, required in every state-changing form. */
  csrf: string;
}

/** Secure everywhere except plain-http local runs (localhost, 127.0.0.1). */
export function secureCookies(c: Context): boolean {
  const host = new URL(c.req.url).hostname;
  return !(host === 'localhost' || host === '127.0.0.1' || host === '[::1]');
}

export async function startSession(
  c: Context,
  key: Uint8Array,
  email: string,
  kind: AccountKind = 'user',
): Promise<void> {
  const claims: SessionClaims = { email, kind, csrf: randomBytes(24).toString('base64url') };
  const token = await new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt()
    .setExpirationTime(`${SESSION_SECONDS}s`)
    .setAudience('console')
    .sign(key);
  setCookie(c, SESSION_COOKIE, token, {
    path: '/console',
    httpOnly: true,
    sameSite: 'Lax',
    secure: secureCookies(c),
    maxAge: SESSION_SECONDS,
  });
}

/** The claims of a valid, unexpired session cookie signed with our key; null otherwise. */
export async function readSession(c: Context, key: Uint8Array): Promise<SessionClaims | null> {
  const token = getCookie(c, SESSION_COOKIE);
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], audience: 'console' });
    if (typeof payload.email !== 'string' || typeof payload.csrf !== 'string') return null;
    const kind: AccountKind = payload.kind === 'operator' ? 'operator' : 'user';
    return { email: payload.email, kind, csrf: payload.csrf };
  } catch {
    return null;
  }
}

export function endSession(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/console', secure: secureCookies(c) });
}
