import type { Store } from '@idv/store';

/** Five wrong passwords for one email lock its sign-in for the rest of a 15-minute window. */
export const DEFAULT_LOCKOUT = { maxFailures: 5, windowSeconds: 15 * 60 };

export interface Lockout {
  maxFailures: number;
  windowSeconds: number;
}

// Counted in DynamoDB (not in memory) so the lock holds across every server instance.
const scope = (email: string) => `console-signin-failures#${email.trim().toLowerCase()}`;

export async function isLockedOut(store: Store, email: string, lockout: Lockout, now: Date) {
  return (await store.rateLimits.peek(scope(email), lockout.windowSeconds, now)) >= lockout.maxFailures;
}

export async function countFailure(store: Store, email: string, lockout: Lockout, now: Date) {
  await store.rateLimits.hit(scope(email), lockout.maxFailures, lockout.windowSeconds, now);
}
