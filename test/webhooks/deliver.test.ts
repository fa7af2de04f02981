import { deliver } from '@idv/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from './support.ts';

/** The HTTP sender on its own, against a real local receiver: the address guard at send time. */
let hook: Receiver;
beforeAll(async () => {
  hook = await startReceiver();
});
afterAll(async () => {
  await hook.close();
});

const send = (url: string, allowLocalhost: boolean) =>
  deliver({
    url,
    body: '{}',
    headers: { 'Content-Type': 'application/json' },
    timeoutMs: 2000,
    allowLocalhost,
  });

describe('deliver', () => {
  it('reaches a localhost receiver by name (through the guarded DNS lookup) with the allowance', async () => {
    const url = hook.url.replace('127.0.0.1', 'localhost');
    expect(await send(url, true)).toEqual({ ok: true, statusCode: 200, error: null });
    expect(hook.requests.at(-1)?.body).toBe('{}');
  });

  it('refuses loopback at send time without the allowance, by name or by address, sending nothing', async () => {
    const before = hook.requests.length;
    const byName = await send(hook.url.replace('127.0.0.1', 'localhost'), false);
    expect(byName.ok).toBe(false);
    expect(byName.error).toMatch(/^refused: localhost resolves to a private or reserved address/);
    const byAddress = await send(hook.url, false);
    expect(byAddress).toEqual({
      ok: false,
      statusCode: null,
      error: 'refused: 127.0.0.1 is a private or reserved address',
    });
    expect(hook.requests.length).toBe(before);
  });

  it('refuses private and metadata addresses even with the allowance', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'https://10.0.0.1/', 'http://[::1]:1/']) {
      const result = await send(url, true);
      expect(result.ok, url).toBe(false);
      expect(result.error, url).toMatch(/^refused: /);
    }
  });
});
