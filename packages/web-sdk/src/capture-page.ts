/**
 * The hosted capture page (`/capture/{session_id}#{client_token}`): a shell that loads the SDK
 * and mounts the same flow. The token stays after `#`, so it never reaches a server or its
 * logs; the script reads it from `location.hash` and removes it from the address bar.
 * Pure string building, usable by the server without a browser.
 */
export interface CapturePageInput {
  sessionId: string;
  /** The document the session imposes, if any. */
  documentType: 'passport' | 'cni' | null;
  /** Where the SDK is served, e.g. `/sdk/v1.js`. */
  sdkPath: string;
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

export function capturePageHtml(input: CapturePageInput): string {
  const config = JSON.stringify({ sessionId: input.sessionId, documentType: input.documentType ?? undefined })
    // Never lets the JSON close the script element.
    .replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Identity check / Vérification d'identité</title>
<style>html,body{margin:0;background:#fff}</style>
</head>
<body>
<main id="capture" data-session="${escapeHtml(input.sessionId)}"></main>
<noscript>JavaScript is required. / JavaScript est nécessaire.</noscript>
<script type="module">
import { mount } from '${escapeHtml(input.sdkPath)}';
const config = ${config};
const clientToken = decodeURIComponent(location.hash.slice(1));
// The token is kept in memory only: a shared screenshot or a reload shows no secret.
history.replaceState(null, '', location.pathname + location.search);
const locale = new URLSearchParams(location.search).get('lang') || undefined;
mount(document.getElementById('capture'), {
  sessionId: config.sessionId,
  clientToken,
  documentType: config.documentType,
  locale: locale === 'fr' || locale === 'en' ? locale : undefined,
  baseUrl: location.origin,
});
</script>
</body>
</html>
`;
}
