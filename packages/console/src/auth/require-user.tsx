import type { Context, MiddlewareHandler } from 'hono';
import type { ConsoleEnv } from '../env.ts';
import { MESSAGES } from '../i18n.ts';
import { ErrorPage } from '../pages/error-page.tsx';
import { CSRF_FIELD, foreignOrigin, sameToken } from './csrf.ts';
import { can, type Permission } from './permissions.ts';
import { readSession } from './session.ts';

/**
 * Every page behind the sign-in: a valid session cookie whose user still exists (re-read on
 * each request, so a removed user or a changed role takes effect at once); otherwise the
 * sign-in page. A state-changing request must also carry the session's CSRF token.
 */
export const requireUser: MiddlewareHandler<ConsoleEnv> = async (c, next) => {
  const session = await readSession(c, c.get('options').sessionKey);
  // An operator's session names no organisation user, even when the emails coincide.
  const user = session?.kind === 'user' ? await c.get('deps').store.users.getByEmail(session.email) : null;
  if (!session || !user) {
    if (c.req.method === 'GET') return c.redirect('/console/sign-in', 303);
    return refuse(c, 401, MESSAGES[c.get('lang')].badForm);
  }
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
    const body = await c.req.parseBody();
    const token = typeof body[CSRF_FIELD] === 'string' ? body[CSRF_FIELD] : undefined;
    if (foreignOrigin(c) || !sameToken(token, session.csrf)) {
      return refuse(c, 403, MESSAGES[c.get('lang')].badForm);
    }
  }
  c.set('user', user);
  c.set('csrf', session.csrf);
  await next();
};

/** Refuses (403) a user whose role the spec's table does not allow this action. */
export function requirePermission(permission: Permission): MiddlewareHandler<ConsoleEnv> {
  return async (c, next) => {
    if (!can(c.get('user').role, permission)) {
      return refuse(c, 403, MESSAGES[c.get('lang')].forbidden);
    }
    await next();
  };
}

function refuse(c: Context<ConsoleEnv>, status: 401 | 403, message: string) {
  return c.html(<ErrorPage lang={c.get('lang')} message={message} />, status);
}
