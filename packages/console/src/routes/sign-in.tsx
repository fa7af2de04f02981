import { nowOf } from '@idv/api';
import type { Context, Hono } from 'hono';
import { preSessionToken, preSessionTokenMatches, sameToken } from '../auth/csrf.ts';
import { countFailure, DEFAULT_LOCKOUT, isLockedOut } from '../auth/lockout.ts';
import { type AccountKind, endSession, readSession, startSession } from '../auth/session.ts';
import type { ConsoleEnv } from '../env.ts';
import { MESSAGES } from '../i18n.ts';
import { SignInPage } from '../pages/sign-in.tsx';

/** Where each kind of account lands once signed in. */
const HOME: Record<AccountKind, string> = { user: '/console/reviews', operator: '/console/operator' };

/**
 * Sign-in (email + password, lock-out after repeated failures) and sign-out, for organisation
 * users at /console/sign-in and for platform operators at /console/operator/sign-in.
 */
export function registerSignInRoutes(app: Hono<ConsoleEnv>): void {
  app.get('/sign-in', (c) => c.html(<SignInPage lang={c.get('lang')} csrf={preSessionToken(c)} />));
  app.post('/sign-in', (c) => signIn(c, 'user'));
  app.get('/operator/sign-in', (c) =>
    c.html(<SignInPage lang={c.get('lang')} csrf={preSessionToken(c)} operator />),
  );
  app.post('/operator/sign-in', (c) => signIn(c, 'operator'));

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
    return c.redirect(session?.kind === 'operator' ? '/console/operator/sign-in' : '/console/sign-in', 303);
  });
}

async function signIn(c: Context<ConsoleEnv>, kind: AccountKind) {
  const t = MESSAGES[c.get('lang')];
  const { store } = c.get('deps');
  const lockout = c.get('options').lockout ?? DEFAULT_LOCKOUT;
  const body = await c.req.parseBody();
  const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
  const password = typeof body.password === 'string' ? body.password : '';
  const again = (status: 400 | 401 | 403 | 429, error: string) =>
    c.html(
      <SignInPage
        lang={c.get('lang')}
        csrf={preSessionToken(c)}
        email={email}
        error={error}
        operator={kind === 'operator'}
      />,
      status,
    );

  if (!preSessionTokenMatches(c, typeof body.csrf === 'string' ? body.csrf : undefined)) {
    return again(403, t.badForm);
  }
  if (!email || !password) return again(400, t.badCredentials);
  const now = nowOf(c.get('deps'));
  // Operators are counted apart: failures on one kind of account never lock the other.
  const counted = kind === 'operator' ? `operator#${email}` : email;
  // Checked before the password, so a locked account gives no hint whether a guess was right.
  if (await isLockedOut(store, counted, lockout, now)) return again(429, t.lockedOut);
  const account =
    kind === 'operator'
      ? await store.operators.authenticate(email, password)
      : await store.users.authenticate(email, password);
  if (!account) {
    await countFailure(store, counted, lockout, now);
    return again(401, t.badCredentials);
  }
  await startSession(c, c.get('options').sessionKey, account.email, kind);
  return c.redirect(HOME[kind], 303);
}
