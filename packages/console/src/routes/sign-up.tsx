import type { Hono } from 'hono';
import { preSessionToken, preSessionTokenMatches } from '../auth/csrf.ts';
import { startSession } from '../auth/session.ts';
import type { ConsoleEnv } from '../env.ts';
import { MESSAGES } from '../i18n.ts';
import { SignUpPage } from '../pages/sign-up.tsx';
import { signUp } from '../services/sign-up.ts';

/**
 * Sign-up: a new organisation in test mode with its owner, then signed in as that owner.
 * Before any session exists the form is protected like the sign-in form (double-submit cookie).
 */
export function registerSignUpRoutes(app: Hono<ConsoleEnv>): void {
  app.get('/sign-up', (c) => c.html(<SignUpPage lang={c.get('lang')} csrf={preSessionToken(c)} />));

  app.post('/sign-up', async (c) => {
    const lang = c.get('lang');
    const body = await c.req.parseBody();
    const field = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');
    const input = { organisation: field('organisation'), email: field('email'), password: field('password') };
    const values = { organisation: input.organisation, email: input.email };
    if (!preSessionTokenMatches(c, field('csrf') || undefined)) {
      return c.html(
        <SignUpPage lang={lang} csrf={preSessionToken(c)} values={values} error={MESSAGES[lang].badForm} />,
        403,
      );
    }
    const result = await signUp(c.get('deps'), input);
    if (!result.ok) {
      const status = result.errors.email === 'email_taken' ? 409 : 400;
      return c.html(
        <SignUpPage lang={lang} csrf={preSessionToken(c)} values={values} errors={result.errors} />,
        status,
      );
    }
    await startSession(c, c.get('options').sessionKey, result.user.email, 'user');
    return c.redirect('/console/reviews', 303);
  });
}
