import type { Analyzer, Verification } from '@idv/core';
import type { Mode, Store } from '@idv/store';
import type { GatewayLimits } from './http/gateway-limits.ts';
import type { AnalysisQueue } from './services/analysis-queue.ts';

/** Everything the HTTP app needs from outside; built once per process (server or Lambda). */
export interface AppDeps {
  store: Store;
  /** Public base URL of the service, e.g. http://localhost:8787 (used in links it returns). */
  baseUrl: string;
  /** Injectable clock, for tests of expiry and windows. */
  now?: () => Date;
  /** Overrides of the spec's limits, for tests only. */
  limits?: Partial<RateLimits>;
  /** Image analysis (in-process vision locally, a Lambda on AWS). */
  analyzer?: Analyzer;
  /**
   * The bounded queue in front of the analysis (services/analysis-queue.ts); unset means one
   * per app with the defaults (one analysis per two cores, ANALYSIS_CONCURRENCY / ANALYSIS_QUEUE_DEPTH).
   */
  analysisQueue?: AnalysisQueue;
  /** For tests: how long an analysis may run before 503. */
  analysisTimeoutMs?: number;
  /** Emits `verification.completed` (the webhooks package). */
  events?: EventPublisher;
  /** Secret for signing short-lived image URLs (32+ bytes). */
  urlSigningKey?: Uint8Array;
  /** For tests: how long a pre-check may run before it answers `checked: false`. */
  precheckTimeoutMs?: number;
  /** Webhook endpoint registration; unset means the environment's settings (no localhost). */
  webhooks?: WebhookApiOptions;
  /**
   * The API gateway's request limit (6 MB once base64-encoded), applied by the app: always on
   * AWS, and locally with IDV_GATEWAY_LIMITS=aws, so the local stack refuses what a stage would.
   */
  gateway?: GatewayLimits;
  /** Told of every authenticated /v1 call once answered (the Lambda entry's cost line uses it). */
  onRequestLogged?: (entry: LoggedRequest) => void;
}

/** What the request log knows of a call, as handed to `onRequestLogged`. */
export interface LoggedRequest {
  orgId: string;
  mode: Mode;
  route: string;
  status: number;
  /** The verification, session or endpoint the call created or read, when it has one. */
  resourceId: string | null;
}

/** The current time: the injected clock in tests, the wall clock otherwise. */
export function nowOf(deps: Pick<AppDeps, 'now'>): Date {
  return deps.now?.() ?? new Date();
}

export interface WebhookApiOptions {
  /** Accept http://localhost and http://127.0.0.1 endpoints (local runs and tests only). */
  allowLocalhost?: boolean;
  /** DNS resolution of endpoint hosts (tests); the system resolver by default. */
  resolve?: (hostname: string) => Promise<string[]>;
}

export interface EventPublisher {
  publishVerificationCompleted(input: {
    orgId: string;
    appId: string;
    mode: Mode;
    verification: Verification;
  }): Promise<unknown>;
}

export interface RateLimits {
  /** Spec: 120 calls per minute per secret key. */
  perKeyPerMinute: number;
  /** Spec: 120 calls per minute per IP address for calls without a key. */
  perIpPerMinute: number;
  /** Spec: browser upload, 12 per minute (counted per session). */
  sessionUploadsPerMinute: number;
  /** Spec: pre-check and chip key reading, 20 per minute per session each. */
  sessionHelpersPerMinute: number;
}

export const DEFAULT_RATE_LIMITS: RateLimits = {
  perKeyPerMinute: 120,
  perIpPerMinute: 120,
  sessionUploadsPerMinute: 12,
  sessionHelpersPerMinute: 20,
};
