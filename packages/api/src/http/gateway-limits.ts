import type { MiddlewareHandler } from 'hono';
import { ApiError } from './api-error.ts';
import type { AppEnv } from './env.ts';

/**
 * API Gateway (HTTP API) in front of a synchronous Lambda: the function's event, which carries
 * a binary body base64-encoded plus the headers and request context, may be at most 6 MB, so
 * a multipart request tops out near 4.5 MB of images. On AWS a larger request never reaches
 * the function; locally `IDV_GATEWAY_LIMITS=aws` applies the same arithmetic so the local
 * stack behaves like a deployed stage. Either way the caller gets the spec's envelope naming
 * the large-upload path, whenever the app sees the request.
 */
export interface GatewayLimits {
  /** The largest function event, in bytes (Lambda: 6 MB for a synchronous invocation). */
  maxEventBytes: number;
}

export const AWS_GATEWAY_LIMITS: GatewayLimits = { maxEventBytes: 6 * 1024 * 1024 };

/** What the event adds besides the body and headers (request context, path, flags), generously. */
const EVENT_OVERHEAD_BYTES = 2048;

/** `IDV_GATEWAY_LIMITS=aws` turns the simulation on (npm start); anything else leaves it off. */
export function gatewayLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): GatewayLimits | undefined {
  return env.IDV_GATEWAY_LIMITS === 'aws' ? AWS_GATEWAY_LIMITS : undefined;
}

/** The gateway passes text bodies as they are and base64-encodes the rest. */
function isTextBody(contentType: string): boolean {
  return /^(text\/|application\/json\b)/i.test(contentType);
}

/** The size of the Lambda event this request would make. */
export function eventBytes(bodyBytes: number, contentType: string, headers: Headers): number {
  const body = isTextBody(contentType) ? bodyBytes : 4 * Math.ceil(bodyBytes / 3);
  let headerBytes = 0;
  headers.forEach((value, name) => {
    headerBytes += name.length + value.length + 6; // quotes, colon and comma of the JSON
  });
  return body + headerBytes + EVENT_OVERHEAD_BYTES;
}

export function gatewayLimit(limits: GatewayLimits): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const raw = c.req.raw;
    if (raw.body) {
      const declared = Number(raw.headers.get('content-length'));
      // Without Content-Length (chunked) the body is measured on a copy, left intact for the route.
      const bodyBytes =
        Number.isFinite(declared) && declared > 0 ? declared : (await raw.clone().arrayBuffer()).byteLength;
      const size = eventBytes(bodyBytes, raw.headers.get('content-type') ?? '', raw.headers);
      if (size > limits.maxEventBytes) throw tooLarge(c.req.path, bodyBytes, size, limits);
    }
    await next();
  };
}

function tooLarge(path: string, bodyBytes: number, size: number, limits: GatewayLimits): ApiError {
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  const session = /^\/v1\/sessions\/[^/]+\//.exec(path);
  const uploads = session ? `POST ${session[0]}uploads` : 'POST /v1/uploads';
  const verify = session ? `POST ${session[0]}verify` : 'POST /v1/verify';
  return new ApiError(
    'image_too_large',
    `the request is ${mb(bodyBytes)} MB (${mb(size)} MB once encoded for the API gateway, whose limit is ` +
      `${mb(limits.maxEventBytes)} MB: about 4.5 MB of images). Send large images with ${uploads}, then name ` +
      `the uploads in a JSON ${verify}`,
  );
}
