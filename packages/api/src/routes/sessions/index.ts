import type { OpenAPIHono } from '@hono/zod-openapi';
import { cors } from 'hono/cors';
import type { AppDeps } from '../../deps.ts';
import type { AppEnv } from '../../http/env.ts';
import { registerCreateSession } from './create-session.ts';
import { registerGetSession } from './get-session.ts';
import { registerPrecheckSession } from './precheck-session.ts';
import { registerReadChipKey } from './read-chip-key.ts';
import { registerUploadSession } from './upload-session.ts';

/**
 * The session operations: the customer's server opens and reads sessions with its secret key;
 * the end user's browser uploads, pre-checks and reads the chip key with the client token.
 */
export function registerSessionRoutes(app: OpenAPIHono<AppEnv>, deps: AppDeps) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'ClientToken', {
    type: 'http',
    scheme: 'bearer',
    description: "A session's client token (vn_ct_…), from POST /v1/sessions: one session, single use.",
  });
  // The browser routes are called from the customer's pages: any origin, with preflight. The
  // token is a bearer header, never a cookie, so an open origin grants nothing by itself.
  const browserCors = cors({
    origin: '*',
    allowMethods: ['POST', 'OPTIONS'],
    allowHeaders: ['authorization', 'content-type'],
    exposeHeaders: [
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'retry-after',
      'x-request-id',
    ],
    maxAge: 600,
  });
  for (const path of ['verify', 'precheck', 'mrz']) app.use(`/v1/sessions/:id/${path}`, browserCors);

  registerCreateSession(app, deps);
  registerGetSession(app, deps);
  registerUploadSession(app, deps);
  registerPrecheckSession(app, deps);
  registerReadChipKey(app, deps);
}
