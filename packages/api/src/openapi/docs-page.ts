/**
 * The API reference page: Scalar's standalone renderer (@scalar/api-reference, MIT), served by
 * this app from node_modules (see docs-bundle.ts), reading the app's own /openapi.json. The page
 * carries no inline script (the configuration is a data attribute) and nothing from a CDN;
 * Scalar's default web fonts are switched off so that it renders offline with system fonts.
 */

export interface DocsPageOptions {
  title: string;
  /** Where the renderer fetches the OpenAPI document, e.g. `/openapi.json`. */
  documentUrl: string;
  /** Where the app serves the renderer's bundle. */
  bundleUrl: string;
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch,
  );

/** Scalar's configuration (its documented options for the standalone bundle). */
function rendererConfiguration(documentUrl: string) {
  return {
    url: documentUrl,
    withDefaultFonts: false,
    // Offline and self-contained: no AI agent (it queries Scalar's registry through its proxy),
    // no developer toolbar (links to Scalar's hosted services), no request proxy.
    agent: { disabled: true },
    showDeveloperTools: 'never',
    proxyUrl: '',
    // The samples are the document's own x-codeSamples (curl, and Node with @idv/client, see
    // code-samples.ts); the renderer's generated ones for other languages and HTTP libraries
    // would show calls the service does not document or support.
    hiddenClients: true,
  };
}

export function renderDocsPage(options: DocsPageOptions): string {
  const configuration = escapeHtml(JSON.stringify(rendererConfiguration(options.documentUrl)));
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(options.title)} — API reference</title>
</head>
<body>
<noscript>This reference needs JavaScript. The machine-readable description is at <a href="${escapeHtml(options.documentUrl)}">${escapeHtml(options.documentUrl)}</a> (OpenAPI 3.1).</noscript>
<script id="api-reference" data-url="${escapeHtml(options.documentUrl)}" data-configuration="${configuration}"></script>
<script src="${escapeHtml(options.bundleUrl)}"></script>
</body>
</html>
`;
}
