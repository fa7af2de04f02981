import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * What real S3 does with a presigned PUT and the local S3 stand-in (fauxqs) does not: check the
 * SigV4 query signature and its expiry, hold the body to the signed Content-Length and
 * Content-Type, and answer the browser's CORS preflight as the bucket's CORS rule does
 * (infra/storage.ts). Installed as hooks on fauxqs's Fastify app, so the SDK's own signed
 * requests (Authorization header) pass through untouched. The body goes straight into the
 * S3 store, past fauxqs's 11 MiB body limit (an upload may be 12 MiB).
 */

/** The subset of Fastify this needs (fauxqs does not export its types). */
interface HookRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  raw: IncomingMessage;
}
interface HookReply {
  code(status: number): HookReply;
  header(name: string, value: string): HookReply;
  send(body?: unknown): HookReply;
}
export interface FastifyLike {
  addHook(
    name: 'onRequest',
    hook: (request: HookRequest, reply: HookReply) => Promise<HookReply | undefined>,
  ): void;
  addHook(
    name: 'onSend',
    hook: (request: HookRequest, reply: HookReply, payload: unknown) => Promise<unknown>,
  ): void;
}
interface ObjectStore {
  putObject(bucket: string, key: string, body: Buffer, contentType?: string): unknown;
}

export interface PresignedUploadOptions {
  credentials: { accessKeyId: string; secretAccessKey: string };
  region: string;
  /** A presigned body beyond this is refused (S3 itself caps a PUT at 5 GB). */
  maxBytes: number;
  now?: () => Date;
}

/** The bucket CORS rule of infra/storage.ts, answered locally. */
export const UPLOAD_CORS = {
  allowedMethods: ['PUT'],
  allowedHeaders: ['content-type'],
  exposeHeaders: ['etag'],
  maxAgeSeconds: 3000,
} as const;

export function installPresignedUploads(
  app: FastifyLike,
  store: ObjectStore,
  options: PresignedUploadOptions,
) {
  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'OPTIONS') return preflight(request, reply);
    const url = new URL(request.url, 'http://local');
    if (!url.searchParams.has('X-Amz-Signature')) return undefined;
    if (request.method !== 'PUT') return s3Error(reply, 405, 'MethodNotAllowed', 'only PUT is presigned');
    const refusal = checkSignature(request, url, options);
    if (refusal) return s3Error(reply, 403, refusal.code, refusal.message);

    const declared = Number(request.headers['content-length']);
    if (!Number.isInteger(declared) || declared > options.maxBytes) {
      return s3Error(reply, 400, 'EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size');
    }
    const body = await readBody(request.raw, declared);
    if (body.byteLength !== declared) {
      return s3Error(reply, 400, 'IncompleteBody', 'You did not provide the number of bytes specified');
    }
    const [bucket, ...rest] = url.pathname.slice(1).split('/');
    const key = decodeURIComponent(rest.join('/'));
    try {
      store.putObject(bucket ?? '', key, body, headerOf(request, 'content-type'));
      const etag = `"${createHash('md5').update(body).digest('hex')}"`;
      return reply.code(200).header('etag', etag).send();
    } catch (error) {
      return s3Error(reply, 404, 'NoSuchBucket', String((error as Error).message));
    }
  });

  // Every answer to a browser (an Origin header) carries the CORS rule's headers.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.headers.origin) {
      reply.header('access-control-allow-origin', '*');
      reply.header('access-control-expose-headers', UPLOAD_CORS.exposeHeaders.join(', '));
    }
    return payload;
  });
}

function preflight(request: HookRequest, reply: HookReply) {
  const method = headerOf(request, 'access-control-request-method');
  const headers = (headerOf(request, 'access-control-request-headers') ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const allowed =
    method !== undefined &&
    (UPLOAD_CORS.allowedMethods as readonly string[]).includes(method) &&
    headers.every((h) => (UPLOAD_CORS.allowedHeaders as readonly string[]).includes(h));
  if (!request.headers.origin || !allowed) {
    return s3Error(reply, 403, 'AccessForbidden', 'CORSResponse: This CORS request is not allowed.');
  }
  return reply
    .code(200)
    .header('access-control-allow-origin', '*')
    .header('access-control-allow-methods', UPLOAD_CORS.allowedMethods.join(', '))
    .header('access-control-allow-headers', UPLOAD_CORS.allowedHeaders.join(', '))
    .header('access-control-max-age', String(UPLOAD_CORS.maxAgeSeconds))
    .send();
}

/** SigV4 query-string authentication, as S3 checks it; null when the request may proceed. */
function checkSignature(
  request: HookRequest,
  url: URL,
  options: PresignedUploadOptions,
): { code: string; message: string } | null {
  const q = url.searchParams;
  const date = q.get('X-Amz-Date') ?? '';
  const expires = Number(q.get('X-Amz-Expires'));
  const credential = q.get('X-Amz-Credential') ?? '';
  const signedHeaders = (q.get('X-Amz-SignedHeaders') ?? '').split(';').filter(Boolean);
  const signature = q.get('X-Amz-Signature') ?? '';
  const [accessKey, day, region, service, terminal] = credential.split('/');
  const signedAt = Date.parse(
    `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`,
  );
  if (
    q.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256' ||
    accessKey !== options.credentials.accessKeyId ||
    region !== options.region ||
    service !== 's3' ||
    terminal !== 'aws4_request' ||
    day !== date.slice(0, 8) ||
    !Number.isFinite(signedAt) ||
    !Number.isInteger(expires) ||
    !signedHeaders.includes('host')
  ) {
    return { code: 'AuthorizationQueryParametersError', message: 'malformed presigned request' };
  }
  const now = options.now?.() ?? new Date();
  if (now.getTime() > signedAt + expires * 1000) {
    return { code: 'AccessDenied', message: 'Request has expired' };
  }

  const canonicalQuery = [...q.entries()]
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => [awsEncode(k), awsEncode(v)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalHeaders = signedHeaders
    .map((h) => `${h}:${(headerOf(request, h) ?? '').trim().replace(/\s+/g, ' ')}\n`)
    .join('');
  const canonicalRequest = [
    request.method,
    url.pathname,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders.join(';'),
    q.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD',
  ].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', date, scope, sha256Hex(canonicalRequest)].join('\n');
  let key: Buffer = hmac(`AWS4${options.credentials.secretAccessKey}`, day ?? '');
  for (const part of [region ?? '', 's3', 'aws4_request']) key = hmac(key, part);
  const expected = Buffer.from(hmac(key, stringToSign).toString('hex'));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    return {
      code: 'SignatureDoesNotMatch',
      message: 'The request signature we calculated does not match the signature you provided.',
    };
  }
  return null;
}

/** Reads at most `limit` + 1 bytes: enough to tell a body longer than it declared. */
async function readBody(raw: IncomingMessage, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of raw) {
    chunks.push(chunk as Buffer);
    length += (chunk as Buffer).byteLength;
    if (length > limit) break;
  }
  return Buffer.concat(chunks);
}

function s3Error(reply: HookReply, status: number, code: string, message: string) {
  return reply
    .code(status)
    .header('content-type', 'application/xml')
    .send(
      `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
    );
}

function headerOf(request: HookRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** RFC 3986 encoding as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
function awsEncode(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

function hmac(key: string | Buffer, value: string): Buffer {
  return createHmac('sha256', key).update(value, 'utf8').digest();
}
