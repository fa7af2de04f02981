import { describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_SETTINGS, retryMinuteFromEnv, webhookSettings } from '../src/settings.ts';

describe('WEBHOOKS_RETRY_MINUTE_MS (the scaled-down retry minute)', () => {
  it('keeps the spec minute when unset', () => {
    expect(webhookSettings({}, {}).minuteMs).toBe(60_000);
    expect(DEFAULT_WEBHOOK_SETTINGS.minuteMs).toBe(60_000);
  });

  it('scales the minute down on a local run', () => {
    expect(webhookSettings({}, { WEBHOOKS_RETRY_MINUTE_MS: '200' }).minuteMs).toBe(200);
    expect(webhookSettings({}, { WEBHOOKS_RETRY_MINUTE_MS: '200', NODE_ENV: 'development' }).minuteMs).toBe(
      200,
    );
  });

  it('is refused in production and on the production stage', () => {
    expect(() => retryMinuteFromEnv({ WEBHOOKS_RETRY_MINUTE_MS: '200', NODE_ENV: 'production' })).toThrow(
      /refused in production/,
    );
    expect(() => retryMinuteFromEnv({ WEBHOOKS_RETRY_MINUTE_MS: '200', SST_STAGE: 'production' })).toThrow(
      /refused in production/,
    );
    expect(() => webhookSettings({}, { WEBHOOKS_RETRY_MINUTE_MS: '200', STAGE: 'production' })).toThrow();
  });

  it('refuses values that are not a whole number of milliseconds from 10 to 60000', () => {
    for (const bad of ['abc', '0', '5', '1.5', '60001', '-100']) {
      expect(() => retryMinuteFromEnv({ WEBHOOKS_RETRY_MINUTE_MS: bad })).toThrow(/WEBHOOKS_RETRY_MINUTE_MS/);
    }
  });
});
