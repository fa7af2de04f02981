import { computeSignature } from './receiver.ts';

/** The `Service-Signature` header for a body sent at `now`: `t=<unix seconds>,v1=<hex>`. */
export function signatureHeader(secret: string, rawBody: string, now: Date = new Date()): string {
  const t = Math.floor(now.getTime() / 1000);
  return `t=${t},v1=${computeSignature(secret, t, rawBody)}`;
}
