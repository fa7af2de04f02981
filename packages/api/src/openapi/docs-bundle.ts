import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The renderer's browser bundle, read once from the installed package (node_modules) so the
 * reference page needs no CDN. `@scalar/api-reference` exports the file as
 * `./browser/standalone.js`; it is about 3.5 MB, kept in memory after the first request.
 * A bundled deployment (the Lambda) has no node_modules: it copies the file and names it in
 * `DOCS_BUNDLE_FILE` (infra/api.ts).
 */
const BUNDLE_SPECIFIER = '@scalar/api-reference/browser/standalone.js';

let bundle: Buffer | undefined;

export function docsBundle(): Buffer {
  bundle ??= readFileSync(
    process.env.DOCS_BUNDLE_FILE || createRequire(import.meta.url).resolve(BUNDLE_SPECIFIER),
  );
  return bundle;
}
