import { nowOf } from '@idv/api';
import type { Hono } from 'hono';
import { preSessionToken, preSessionTokenMatches, sameToken } from '../auth/csrf.ts';
import { countFailure, DEFAULT_LOCKOUT, isLockedOut } from '../auth/lockout.ts';
import { endSession, readSession, startSession } from '../auth/session.ts';
import type { ConsoleEnv } from '../env.ts';
import { MESSAGES } from '../i18n.ts';
import { SignInPage } from '../pages/sign-in.tsx';

/** Sign-in (email + password, lock-out after repeated failures) and sign-out. */
export function registerSignInRoutes(app: Hono<ConsoleEnv>): void {
  app.get('/sign-in', (c) => c.html(<SignInPage lang={c.get('lang')} csrf={preSessionToken(c)} />));

  app.post('/sign-in', async (c) => {
    const t = MESSAGES[c.get('lang')];
    const { store } = c.get('deps');
    const lockout = c.get('options').lockout ?? DEFAULT_LOCKOUT;
    const body = await c.req.parseBody();
    const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
    const password = typeof body.password === 'string' ? body.password : '';
    const again = (status: 400 | 401 | 403 | 429, error: string) =>
      c.html(
        <SignInPage lang={c.get('lang')} csrf={preSessionToken(c)} email={email} error={error} />,
        status,
      );

    if (!preSessionTokenMatches(c, typeof body.csrf === 'string' ? body.csrf : undefined)) {
      return again(403, t.badForm);
    }
    if (!email || !password) return again(400, t.badCredentials);
    const now = nowOf(c.get('deps'));
    // Checked before the password, so a locked account gives no hint whether a guess was right.
    if (await isLockedOut(store, email, lockout, now)) return again(429, t.lockedOut);
    const user = await store.users.authenticate(email, password);
    if (!user) {
      await countFailure(store, email, lockout, now);
      return again(401, t.badCredentials);
    }
    await startSession(c, c.get('options').sessionKey, user.email);
    return c.redirect('/console/reviews', 303);
  });

  app.post('/sign-out', async (c) => {
    // Sign-out is state-changing too: only with the session's own CSRF token.
    const session = await readSession(c, c.get('options').sessionKey);
    const body = await c.req.parseBody();
    if (session && !sameToken(typeof body.csrf === 'string' ? body.csrf : undefined, session.csrf)) {
      return c.html(
        <SignInPage lang={c.get('lang')} csrf={preSessionToken(c)} error={MESSAGES[c.get('lang')].badForm} />,
        403,
      );
    }
    endSession(c);
    return c.redirect('/console/sign-in', 303);
  });
}
