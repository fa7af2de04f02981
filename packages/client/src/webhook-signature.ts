/**
 * For receivers: checks a webhook's `Service-Signature` header. Depends on `node:crypto` only,
 * so it can be imported as `@idv/client` (or `@idv/client/webhook-signature`) or copied as is
 * into a customer's code. The service signs with the same `computeSignature` (via `@idv/webhooks/receiver`).
 *
 * The header is `t=<unix seconds>,v1=<hex>`, where the hex is the HMAC-SHA256 of
 * `<t>.<raw body>` keyed with the endpoint secret (the whole `whsec_…` string, as UTF-8).
 * Several `v1=` values may appear (e.g. while a secret is being rotated); one matching is enough.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Spec: a receiver rejects a timestamp more than 5 minutes away from the present. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** Lower-case hex HMAC-SHA256 of `<timestamp>.<raw body>`. */
export function computeSignature(secret: string, timestamp: number, rawBody: string | Uint8Array): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${timestamp}.`, 'utf8');
  hmac.update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody);
  return hmac.digest('hex');
}

export interface VerifyOptions {
  /** Seconds of clock difference accepted either way; 300 by default (the spec's 5 minutes). */
  toleranceSeconds?: number;
  /** The present, in milliseconds (tests). */
  now?: number;
}

/**
 * Throws WebhookSignatureError unless `header` carries a valid signature of `rawBody` made with
 * `secret` less than the tolerance away from now. Pass the body exactly as received (bytes or
 * the undecoded string), before any JSON parsing: re-serialising parsed JSON changes the bytes.
 * Returns the parsed event on success.
 */
export function verifyWebhookSignature<T = unknown>(
  rawBody: string | Uint8Array,
  header: string | null | undefined,
  secret: string,
  options: VerifyOptions = {},
): T {
  if (!header) throw new WebhookSignatureError('missing Service-Signature header');
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const [name, value] = part.trim().split('=', 2);
    if (name === 't' && value && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (name === 'v1' && value && /^[0-9a-f]{64}$/.test(value)) signatures.push(value);
  }
  if (timestamp === null) throw new WebhookSignatureError('no valid t= in Service-Signature');
  if (signatures.length === 0) throw new WebhookSignatureError('no valid v1= in Service-Signature');

  const tolerance = options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - timestamp) > tolerance) {
    throw new WebhookSignatureError('timestamp outside the tolerance (replayed or clock skew)');
  }

  const expected = Buffer.from(computeSignature(secret, timestamp, rawBody), 'hex');
  // Constant-time comparison of equal-length buffers: nothing leaks how many bytes matched.
  const matches = signatures.some((s) => timingSafeEqual(Buffer.from(s, 'hex'), expected));
  if (!matches) throw new WebhookSignatureError('signature does not match');

  const text = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8');
  return JSON.parse(text) as T;
}
