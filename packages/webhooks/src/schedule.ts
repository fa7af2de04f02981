/**
 * DESIGN.md's retry schedule: 8 attempts; attempt 1 at once, attempt n (2..8) 2^(n-2) minutes
 * after the previous one failed — 1, 2, 4, 8, 16, 32, 64 minutes, about 2 h 7 min in all.
 */
export const MAX_ATTEMPTS = 8;

/** Delay before attempt `attempt` (2..8), in milliseconds, for a given length of a minute. */
export function retryDelayMs(attempt: number, minuteMs: number): number {
  if (!Number.isInteger(attempt) || attempt < 2 || attempt > MAX_ATTEMPTS) {
    throw new RangeError(`no retry delay for attempt ${attempt}`);
  }
  return 2 ** (attempt - 2) * minuteMs;
}

/** The whole schedule's length: how long an endpoint may be down without losing an event. */
export function scheduleLengthMs(minuteMs: number): number {
  let total = 0;
  for (let n = 2; n <= MAX_ATTEMPTS; n++) total += retryDelayMs(n, minuteMs);
  return total;
}
