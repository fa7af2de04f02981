/**
 * Knobs of the webhook machinery. Production uses the defaults (the spec's numbers); tests
 * shrink the time scale, and local runs allow http://localhost receivers.
 */
export interface WebhookSettings {
  /**
   * Accept `http://localhost` / `http://127.0.0.1` endpoints (and deliver to loopback for those
   * hosts only). On locally (`npm start`) and in tests; off by default, hence off on AWS.
   */
  allowLocalhost: boolean;
  /** Spec: the receiver answers with a 2xx within 10 seconds. */
  replyTimeoutMs: number;
  /**
   * Length of the retry schedule's "minute". 60 000 in production; tests shrink it. Only ever
   * set in code (never from the environment), so a deployment cannot run a shortened schedule.
   */
  minuteMs: number;
  /**
   * A claimed attempt with no recorded outcome after this long is taken to have died with its
   * worker (it is counted as failed and the next one scheduled). Must exceed the reply time-out
   * plus the worker's own overhead; the queue's 60-second visibility time-out is longer anyway.
   */
  staleClaimMs: number;
  /** Events still not fanned out after this long are re-sent by the sweep. */
  sweepAfterMs: number;
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  allowLocalhost: false,
  replyTimeoutMs: 10_000,
  minuteMs: 60_000,
  staleClaimMs: 40_000,
  sweepAfterMs: 120_000,
};

/** The environment switch for the localhost allowance (`WEBHOOKS_ALLOW_LOCALHOST=true`). */
export function allowLocalhostFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.WEBHOOKS_ALLOW_LOCALHOST === 'true' || env.WEBHOOKS_ALLOW_LOCALHOST === '1';
}

export function webhookSettings(overrides: Partial<WebhookSettings> = {}): WebhookSettings {
  const merged = { ...DEFAULT_WEBHOOK_SETTINGS, allowLocalhost: allowLocalhostFromEnv(), ...overrides };
  // Keep the stale-claim threshold above the reply time-out whatever the overrides say.
  merged.staleClaimMs = Math.max(merged.staleClaimMs, merged.replyTimeoutMs + 5_000);
  return merged;
}
