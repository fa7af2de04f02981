import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { secureCookies } from './session.ts';

/** The hidden form field that carries the CSRF token. */
export const CSRF_FIELD = 'csrf';
/** Before sign-in there is no session: the sign-in form uses a double-submit cookie. */
const PRE_SESSION_COOKIE = 'idv_csrf';

export function sameToken(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A form posted from another site (Origin header of a foreign origin) is refused outright. */
export function foreignOrigin(c: Context): boolean {
  const origin = c.req.header('origin');
  if (!origin) return false;
  return origin === 'null' || origin !== new URL(c.req.url).origin;
}

/** The token for the sign-in form: the cookie's if present, else a new one set as cookie. */
export function preSessionToken(c: Context): string {
  const existing = getCookie(c, PRE_SESSION_COOKIE);
  if (existing && existing.length >= 32) return existing;
  const token = randomBytes(24).toString('base64url');
  setCookie(c, PRE_SESSION_COOKIE, token, {
    path: '/console',
    httpOnly: true,
    sameSite: 'Lax',
    secure: secureCookies(c),
  });
  return token;
}

export function preSessionTokenMatches(c: Context, submitted: string | undefined): boolean {
  return sameToken(getCookie(c, PRE_SESSION_COOKIE), submitted);
}
