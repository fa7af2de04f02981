import type { AppDeps } from '@idv/api';
import type { ConsoleUser, PlatformOperator } from '@idv/store';
import type { Lang } from './i18n.ts';

/** Options of the console beyond the API's dependencies. */
export interface ConsoleOptions {
  /** HMAC key (32+ bytes) signing the session cookie. */
  sessionKey: Uint8Array;
  /** Failed sign-ins per email before the lock-out, and how long it lasts (tests shorten them). */
  lockout?: { maxFailures: number; windowSeconds: number };
}

export interface ConsoleEnv {
  Variables: {
    deps: AppDeps;
    options: ConsoleOptions;
    lang: Lang;
    /** Set by requireUser for every page behind the sign-in. */
    user: ConsoleUser;
    /** Set by requireOperator for the platform operator's pages. */
    operator: PlatformOperator;
    /** The session's CSRF token, put in every state-changing form. */
    csrf: string;
  };
}
