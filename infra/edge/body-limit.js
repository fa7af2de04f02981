// CloudFront Function (runtime cloudfront-js-2.0, viewer request) in front of the HTTP API.
//
// API Gateway hands the function one Lambda event of at most 6 MiB, the body base64-encoded
// unless it is JSON or text; a larger request never reaches the function, and the caller would
// get the gateway's own error instead of the spec's envelope. This runs first, at the edge: a
// request whose declared Content-Length would not fit answers 413 `image_too_large` in the
// envelope, naming the direct-upload path, the same answer the app gives for what it sees
// (packages/api/src/http/gateway-limits.ts, same arithmetic; test/lambda/edge-body-limit.test.ts
// keeps the two in step). Everything else goes on to the gateway.
//
// Without a Content-Length (chunked, or an HTTP/2 request that leaves it out) the size is not
// known here (CloudFront Functions never see the body): such a request passes; if it is too
// large the gateway refuses it with its own error (docs/decisions.md, "Large uploads").
//
// On its way through, the request gains one header, `x-idv-viewer-ip`: the viewer's address
// (the gateway only sees CloudFront's), replacing any value the caller sent. The API trusts it
// only beside the secret origin header CloudFront adds (functions/edge-viewer.ts).
//
// Plain script, no imports: CloudFront calls `handler` by name. The test runs this file as is.

// Lambda's limit on a synchronous invocation's event (AWS_GATEWAY_LIMITS.maxEventBytes).
const MAX_EVENT_BYTES = 6 * 1024 * 1024;
// Request context, path and flags of the event (EVENT_OVERHEAD_BYTES in gateway-limits.ts).
const EVENT_OVERHEAD_BYTES = 2048;
// Headers added after this point (CloudFront's via, x-amz-cf-id, x-forwarded-*, the secret
// origin header and the viewer address; the gateway's x-amzn-trace-id), so the edge is never
// more lenient than the gateway behind it.
const ADDED_HEADER_BYTES = 1024;

function isTextBody(contentType) {
  return /^(text\/|application\/json\b)/i.test(contentType);
}

function headerValue(headers, name) {
  const header = headers[name];
  return header ? String(header.value) : '';
}

// The headers, cookies and query string as they will sit in the Lambda event's JSON.
function metadataBytes(request) {
  let bytes = 0;
  const headers = request.headers || {};
  for (const name in headers) {
    const header = headers[name];
    const values = header.multivalue ? header.multivalue : [header];
    for (let i = 0; i < values.length; i++) bytes += name.length + String(values[i].value).length + 6;
  }
  const cookies = request.cookies || {};
  for (const name in cookies) bytes += name.length + String(cookies[name].value).length + 4;
  const query = request.querystring || {};
  for (const key in query) bytes += key.length + String(query[key].value).length + 2;
  return bytes;
}

function megabytes(bytes) {
  return (bytes / 1024 / 1024).toFixed(1);
}

function tooLarge(request, bodyBytes, eventBytes) {
  const session = /^\/v1\/sessions\/[^/]+\//.exec(request.uri);
  const uploads = session ? 'POST ' + session[0] + 'uploads' : 'POST /v1/uploads';
  const verify = session ? 'POST ' + session[0] + 'verify' : 'POST /v1/verify';
  const message =
    'the request is ' +
    megabytes(bodyBytes) +
    ' MB (' +
    megabytes(eventBytes) +
    ' MB once encoded for the API gateway, whose limit is ' +
    megabytes(MAX_EVENT_BYTES) +
    ' MB: about 4.5 MB of images). Send large images with ' +
    uploads +
    ', then name the uploads in a JSON ' +
    verify;
  const headers = {
    'content-type': { value: 'application/json' },
    'cache-control': { value: 'no-store' },
  };
  // The session's browser routes are called from any origin (the app's CORS there): without
  // this header the page could not read the refusal.
  if (session) {
    headers['access-control-allow-origin'] = { value: '*' };
    headers['access-control-expose-headers'] = { value: 'x-request-id' };
  }
  return {
    statusCode: 413,
    statusDescription: 'Payload Too Large',
    headers: headers,
    body: {
      encoding: 'text',
      data: JSON.stringify({ error: { code: 'image_too_large', message: message } }),
    },
  };
}

function passOn(event) {
  const request = event.request;
  // Always set (or removed), so a caller never chooses the value the API might trust.
  // biome-ignore lint/complexity/useOptionalChain: ES5-level syntax, safe on every CloudFront runtime.
  if (event.viewer && event.viewer.ip)
    request.headers['x-idv-viewer-ip'] = { value: String(event.viewer.ip) };
  else delete request.headers['x-idv-viewer-ip'];
  return request;
}

// biome-ignore lint/correctness/noUnusedVariables: CloudFront calls the function by this name.
function handler(event) {
  const request = event.request;
  if (!request.headers) request.headers = {};
  const declared = headerValue(request.headers, 'content-length');
  // No length (chunked) or not a plain number: nothing to measure, the request goes on.
  if (!/^\d{1,15}$/.test(declared)) return passOn(event);
  const bodyBytes = Number(declared);
  if (bodyBytes === 0) return passOn(event);
  const contentType = headerValue(request.headers, 'content-type');
  const encodedBody = isTextBody(contentType) ? bodyBytes : 4 * Math.ceil(bodyBytes / 3);
  const eventBytes = encodedBody + metadataBytes(request) + EVENT_OVERHEAD_BYTES;
  if (eventBytes + ADDED_HEADER_BYTES > MAX_EVENT_BYTES) return tooLarge(request, bodyBytes, eventBytes);
  return passOn(event);
}
