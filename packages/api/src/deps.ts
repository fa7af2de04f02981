import type { Store } from '@idv/store';

/** Everything the HTTP app needs from outside; built once per process (server or Lambda). */
export interface AppDeps {
  store: Store;
  /** Public base URL of the service, e.g. http://localhost:8787 (used in links it returns). */
  baseUrl: string;
  /** Injectable clock, for tests of expiry and windows. */
  now?: () => Date;
  /** Overrides of the spec's limits, for tests only. */
  limits?: Partial<RateLimits>;
}

export interface RateLimits {
  /** Spec: 120 calls per minute per secret key. */
  perKeyPerMinute: number;
  /** Spec: 120 calls per minute per IP address for calls without a key. */
  perIpPerMinute: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = { perKeyPerMinute: 120, perIpPerMinute: 120 };
