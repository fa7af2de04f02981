import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { SDK_DIST_DIR } from '@idv/web-sdk/bundle-path';
import { capturePageHtml } from '@idv/web-sdk/capture-page';
import { nowOf } from '../../deps.ts';
import type { ApiApp } from '../../http/env.ts';
import { errorResponse } from '../../http/errors.ts';
import { isResourceId } from '../../http/resource-id.ts';

const SDK_FILES = {
  'v1.js': 'text/javascript; charset=utf-8',
  'v1.d.ts': 'text/plain; charset=utf-8',
} as const;

/**
 * The browser side of sessions, outside the JSON API: the hosted capture page
 * (`/capture/{session_id}`, token after `#`) and the web SDK files (`/sdk/v1.js`, typings).
 * Neither is in the request log: the page's address holds no secret, and the SDK is public.
 */
export function registerCaptureRoutes(app: ApiApp) {
  app.get('/capture/:id', async (c) => {
    const { deps } = c.var;
    const id = c.req.param('id');
    const session = isResourceId(id, 'ses') ? await deps.store.sessions.getById(id) : null;
    if (!session) return errorResponse(c, 'not_found', 'no such capture session');
    // A QR session shows "opened on the phone" in the console from the first load of this page.
    await deps.store.sessions.markOpened(session.id, nowOf(deps));
    const nonce = randomBytes(16).toString('base64');
    const html = capturePageHtml({
      sessionId: session.id,
      documentType: session.document_type,
      sdkPath: '/sdk/v1.js',
    })
      // Only this page's own script runs: the nonce is fresh for each response.
      .replace('<script type="module">', `<script type="module" nonce="${nonce}">`);
    // The photos go straight to the upload bucket (presigned PUTs): the page may reach it too.
    const uploads = await deps.store.uploads.origin();
    c.header(
      'content-security-policy',
      `default-src 'none'; script-src 'self' 'nonce-${nonce}'; style-src 'unsafe-inline'; img-src blob: data:; ` +
        `media-src blob: mediastream:; connect-src 'self' ${uploads}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    c.header('cache-control', 'no-store');
    c.header('referrer-policy', 'no-referrer');
    c.header('permissions-policy', 'camera=(self)');
    c.header('x-content-type-options', 'nosniff');
    return c.html(html);
  });

  app.get('/sdk/:file', async (c) => {
    const file = c.req.param('file') as keyof typeof SDK_FILES;
    const type = SDK_FILES[file];
    if (!type) return errorResponse(c, 'not_found', `no SDK file ${file}`);
    let body: Buffer;
    try {
      body = await readFile(resolve(SDK_DIST_DIR, file));
    } catch {
      // The bundle is built by npm install / start / test; its absence is a broken install.
      return errorResponse(
        c,
        'internal_error',
        'the web SDK is not built (npm run build -w packages/web-sdk)',
      );
    }
    // Customer pages import it from their own origin: CORS open, like the browser routes.
    c.header('access-control-allow-origin', '*');
    c.header('cache-control', 'public, max-age=300');
    c.header('x-content-type-options', 'nosniff');
    c.header('content-type', type);
    return c.body(new Uint8Array(body), 200);
  });
}
