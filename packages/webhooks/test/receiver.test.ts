import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { computeSignature, verifyWebhookSignature, WebhookSignatureError } from '../src/receiver.ts';
import { signatureHeader } from '../src/signing.ts';

const secret = 'whsec_0123456789abcdefghijABCDEFGHIJ0123456789';
const body = JSON.stringify({ id: 'evt_abc123', type: 'verification.completed', data: { é: 'ü' } });
const now = Date.UTC(2026, 10, 21, 8, 0, 0);

describe('webhook signature', () => {
  it('is the hex HMAC-SHA256 of "<t>.<raw body>" keyed with the whole secret', () => {
    const t = 1_790_000_000;
    const independent = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    expect(computeSignature(secret, t, body)).toBe(independent);
    expect(computeSignature(secret, t, Buffer.from(body))).toBe(independent);
  });

  it('verifies what the service signs and returns the parsed event', () => {
    const header = signatureHeader(secret, body, new Date(now));
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(body, header, secret, { now })).toEqual(JSON.parse(body));
  });

  const refusals: [string, () => unknown][] = [
    ['a missing header', () => verifyWebhookSignature(body, undefined, secret, { now })],
    ['a header without t=', () => verifyWebhookSignature(body, `v1=${'a'.repeat(64)}`, secret, { now })],
    ['a header without v1=', () => verifyWebhookSignature(body, `t=${now / 1000}`, secret, { now })],
    [
      'another secret',
      () => verifyWebhookSignature(body, signatureHeader(`${secret}x`, body, new Date(now)), secret, { now }),
    ],
    [
      'a body changed by one byte',
      () => verifyWebhookSignature(`${body} `, signatureHeader(secret, body, new Date(now)), secret, { now }),
    ],
    [
      'a timestamp 5 min 1 s old',
      () =>
        verifyWebhookSignature(body, signatureHeader(secret, body, new Date(now - 301_000)), secret, { now }),
    ],
    [
      'a timestamp 5 min 1 s ahead',
      () =>
        verifyWebhookSignature(body, signatureHeader(secret, body, new Date(now + 301_000)), secret, { now }),
    ],
  ];
  for (const [name, call] of refusals) {
    it(`refuses ${name}`, () => {
      expect(call).toThrow(WebhookSignatureError);
    });
  }

  it('accepts a timestamp exactly 5 minutes away, and any matching v1 among several', () => {
    const old = signatureHeader(secret, body, new Date(now - 300_000));
    expect(() => verifyWebhookSignature(body, old, secret, { now })).not.toThrow();
    const [t, v1] = signatureHeader(secret, body, new Date(now)).split(',');
    const rotated = `${t},v1=${'0'.repeat(64)},${v1}`;
    expect(verifyWebhookSignature(body, rotated, secret, { now })).toEqual(JSON.parse(body));
  });
});
