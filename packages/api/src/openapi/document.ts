import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../http/env.ts';
import { withCodeSamples } from './code-samples.ts';
import { docsBundle } from './docs-bundle.ts';
import { renderDocsPage } from './docs-page.ts';
import { registerWebhookEvents } from './webhook-events.ts';

export const API_VERSION = '1.0.0';

const API_TITLE = 'Identity Verification API';

const API_DESCRIPTION =
  'Verifies identity documents (passports, Sahel biometric ID cards, Niger paper ID card) from photos, ' +
  'with an optional selfie match. Errors always have the shape {"error":{"code","message"}}; `code` is one ' +
  'of the values listed in the `Error` schema. Authenticated calls answer with the rate-limit headers ' +
  '`x-ratelimit-limit`, `x-ratelimit-remaining` and `x-ratelimit-reset`; a 429 adds `retry-after`. ' +
  'A typed Node client generated from this document is the `@idv/client` package.';

export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';
/** The renderer's bundle, versioned by path so a new renderer is never mixed with a cached page. */
export const DOCS_BUNDLE_PATH = '/docs/assets/api-reference.js';

export function openApiConfig(baseUrl: string) {
  return {
    openapi: '3.1.0',
    info: { title: API_TITLE, version: API_VERSION, description: API_DESCRIPTION },
    servers: [{ url: baseUrl }],
  };
}

/**
 * The published contract: `/openapi.json` (generated from the routes, with the `webhooks`
 * section and code samples), and `/docs`, the reference page rendering it. Registered after the
 * routes; the document is built on first request and kept (routes do not change at run time).
 */
export function registerContract(app: OpenAPIHono<AppEnv>, baseUrl: string): void {
  registerWebhookEvents(app.openAPIRegistry);
  let document: object | undefined;
  const openApiDocument = () => {
    document ??= withCodeSamples(app.getOpenAPI31Document(openApiConfig(baseUrl)) as object);
    return document;
  };
  app.get(OPENAPI_PATH, (c) => c.json(openApiDocument()));
  app.get(DOCS_PATH, (c) =>
    c.html(renderDocsPage({ title: API_TITLE, documentUrl: OPENAPI_PATH, bundleUrl: DOCS_BUNDLE_PATH })),
  );
  app.get(DOCS_BUNDLE_PATH, (c) => {
    c.header('content-type', 'text/javascript; charset=utf-8');
    c.header('cache-control', 'public, max-age=3600');
    return c.body(new Uint8Array(docsBundle()));
  });
}
