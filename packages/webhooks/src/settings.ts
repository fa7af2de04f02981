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
   * Length of the retry schedule's "minute". 60 000 in production; tests shrink it, and a local
   * run may through `WEBHOOKS_RETRY_MINUTE_MS` (refused in production, see below).
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

/**
 * `WEBHOOKS_RETRY_MINUTE_MS=200` shrinks the schedule's minute so a running instance shows all
 * 8 attempts and `failed` in under a minute (200 ms → 127 "minutes" = 25 s plus the queue's
 * whole-second delays). Refused with an error, so the process does not start, when
 * NODE_ENV=production or on the production stage: a live service keeps the spec's schedule.
 */
export function retryMinuteFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.WEBHOOKS_RETRY_MINUTE_MS;
  if (raw === undefined || raw === '') return undefined;
  const stage = env.SST_STAGE ?? env.STAGE;
  if (env.NODE_ENV === 'production' || stage === 'production') {
    throw new Error('WEBHOOKS_RETRY_MINUTE_MS is refused in production: the retry schedule is fixed there');
  }
  const minuteMs = Number(raw);
  if (!Number.isInteger(minuteMs) || minuteMs < 10 || minuteMs > 60_000) {
    throw new Error(
      `WEBHOOKS_RETRY_MINUTE_MS must be a whole number of milliseconds from 10 to 60000, not ${raw}`,
    );
  }
  return minuteMs;
}

export function webhookSettings(
  overrides: Partial<WebhookSettings> = {},
  env: NodeJS.ProcessEnv = process.env,
): WebhookSettings {
  const minuteMs = retryMinuteFromEnv(env);
  const merged = {
    ...DEFAULT_WEBHOOK_SETTINGS,
    allowLocalhost: allowLocalhostFromEnv(env),
    ...(minuteMs ? { minuteMs } : {}),
    ...overrides,
  };
  // Keep the stale-claim threshold above the reply time-out whatever the overrides say.
  merged.staleClaimMs = Math.max(merged.staleClaimMs, merged.replyTimeoutMs + 5_000);
  return merged;
}
