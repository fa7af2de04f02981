import type { MiddlewareHandler } from 'hono';
import type { ConsoleEnv } from '../env.ts';
import { MESSAGES } from '../i18n.ts';
import { ErrorPage } from '../pages/error-page.tsx';
import { CSRF_FIELD, foreignOrigin, sameToken } from './csrf.ts';
import { readSession } from './session.ts';

/**
 * The platform operator's pages: a valid session of an operator account that still exists.
 * An organisation user (any role, owner included) is refused with 403, never shown the pages;
 * no session at all leads to the operator's sign-in. State-changing requests carry the
 * session's CSRF token, as everywhere in the console.
 */
export const requireOperator: MiddlewareHandler<ConsoleEnv> = async (c, next) => {
  const t = MESSAGES[c.get('lang')];
  const session = await readSession(c, c.get('options').sessionKey);
  if (session?.kind === 'user') {
    return c.html(<ErrorPage lang={c.get('lang')} message={t.operatorOnly} />, 403);
  }
  const operator = session ? await c.get('deps').store.operators.getByEmail(session.email) : null;
  if (!session || !operator) {
    if (c.req.method === 'GET') return c.redirect('/console/operator/sign-in', 303);
    return c.html(<ErrorPage lang={c.get('lang')} message={t.badForm} />, 401);
  }
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
    const body = await c.req.parseBody();
    const token = typeof body[CSRF_FIELD] === 'string' ? body[CSRF_FIELD] : undefined;
    if (foreignOrigin(c) || !sameToken(token, session.csrf)) {
      return c.html(<ErrorPage lang={c.get('lang')} message={t.badForm} />, 403);
    }
  }
  c.set('operator', operator);
  c.set('csrf', session.csrf);
  await next();
};
