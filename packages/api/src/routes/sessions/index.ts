import { cors } from 'hono/cors';
import type { ApiApp } from '../../http/env.ts';
import { registerCreateSession } from './create-session.ts';
import { registerCreateSessionUploads } from './create-session-uploads.ts';
import { registerGetSession } from './get-session.ts';
import { registerPrecheckSession } from './precheck-session.ts';
import { registerReadChipKey } from './read-chip-key.ts';
import { registerUploadSession } from './upload-session.ts';

/**
 * Sessions: the customer's server opens and reads them with its secret key; the end user's
 * browser uploads, pre-checks and reads the chip key with the session's client token.
 */
export function registerSessionRoutes(app: ApiApp) {
  // The browser routes are called from the customer's own pages: any origin, with preflight.
  // The token is a bearer header, never a cookie, so an open origin grants nothing by itself.
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
  for (const path of ['uploads', 'verify', 'precheck', 'mrz'])
    app.use(`/v1/sessions/:id/${path}`, browserCors);

  registerCreateSession(app);
  registerGetSession(app);
  registerCreateSessionUploads(app);
  registerUploadSession(app);
  registerPrecheckSession(app);
  registerReadChipKey(app);
}
