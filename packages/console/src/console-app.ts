import { hkdfSync } from 'node:crypto';
import type { AppDeps } from '@idv/api';
import { Hono } from 'hono';
import type { ConsoleEnv, ConsoleOptions } from './env.ts';
import { pickLang } from './i18n.ts';
import { registerApiKeyRoutes } from './routes/api-keys.tsx';
import { registerJournalRoutes } from './routes/journals.tsx';
import { registerOperatorRoutes } from './routes/operator.tsx';
import { registerQrSessionRoutes } from './routes/qr-sessions.tsx';
import { registerReviewRoutes } from './routes/reviews.tsx';
import { registerSettingsRoutes } from './routes/settings.tsx';
import { registerSignInRoutes } from './routes/sign-in.tsx';
import { registerSignUpRoutes } from './routes/sign-up.tsx';
import { registerTeamRoutes } from './routes/team.tsx';
import { registerUsageRoutes } from './routes/usage.tsx';
import { registerVerificationRoutes } from './routes/verifications.tsx';
import { registerWebhookRoutes } from './routes/webhooks.tsx';

/** The operator console, server-rendered; mounted by the API app under /console. */
export function createConsole(deps: AppDeps, options: ConsoleOptions) {
  if (options.sessionKey.byteLength < 32) throw new Error('the console session key must be 32+ bytes');
  const app = new Hono<ConsoleEnv>();
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    c.set('options', options);
    c.set('lang', pickLang(c));
    // Pages hold a CSRF token and personal data: never cached, never framed.
    c.header('cache-control', 'no-store');
    c.header('x-frame-options', 'DENY');
    c.header('referrer-policy', 'same-origin');
    await next();
  });
  app.get('/', (c) => c.redirect('/console/reviews', 303));
  registerSignInRoutes(app);
  registerSignUpRoutes(app);
  registerReviewRoutes(app);
  registerQrSessionRoutes(app);
  registerApiKeyRoutes(app);
  registerOperatorRoutes(app);
  registerVerificationRoutes(app);
  registerUsageRoutes(app);
  registerWebhookRoutes(app);
  registerJournalRoutes(app);
  registerSettingsRoutes(app);
  registerTeamRoutes(app);
  return app;
}

/** Mounts the console on the API's app (the same server, the same deps). */
export function mountConsole(
  app: { route(path: string, sub: Hono<ConsoleEnv>): unknown },
  deps: AppDeps,
  options: ConsoleOptions,
): void {
  app.route('/console', createConsole(deps, options));
}

/** The session key derived from the service's URL-signing secret (one secret to manage, two uses). */
export function deriveConsoleSessionKey(urlSigningKey: Uint8Array): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', urlSigningKey, new Uint8Array(0), 'idv console session', 32));
}
