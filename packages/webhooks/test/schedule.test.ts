import { describe, expect, it } from 'vitest';
import { deliveryIdFor } from '../src/delivery-id.ts';
import { MAX_ATTEMPTS, retryDelayMs, scheduleLengthMs } from '../src/schedule.ts';

describe('retry schedule (DESIGN.md)', () => {
  it('waits 1, 2, 4 … 64 minutes before attempts 2 to 8', () => {
    const minutes = [];
    for (let n = 2; n <= MAX_ATTEMPTS; n++) minutes.push(retryDelayMs(n, 60_000) / 60_000);
    expect(minutes).toEqual([1, 2, 4, 8, 16, 32, 64]);
    expect(MAX_ATTEMPTS).toBe(8);
  });

  it('lasts 127 minutes in all (the spec\'s "about four hours" counts the receiver time-outs generously)', () => {
    expect(scheduleLengthMs(60_000)).toBe(127 * 60_000);
  });

  it('has no delay before attempt 1 nor after attempt 8', () => {
    expect(() => retryDelayMs(1, 60_000)).toThrow(RangeError);
    expect(() => retryDelayMs(9, 60_000)).toThrow(RangeError);
  });

  it('scales with the length of a minute (tests only)', () => {
    expect(retryDelayMs(5, 50)).toBe(400);
  });
});

describe('delivery ids', () => {
  it('are derived from event and endpoint: the same pair always gives the same id', () => {
    const a = deliveryIdFor('evt_abc', '2026-11-21T08:00:00.000Z', 'whe_one');
    expect(deliveryIdFor('evt_abc', '2026-11-21T08:00:00.000Z', 'whe_one')).toBe(a);
    expect(deliveryIdFor('evt_abc', '2026-11-21T08:00:00.000Z', 'whe_two')).not.toBe(a);
    expect(deliveryIdFor('evt_abd', '2026-11-21T08:00:00.000Z', 'whe_one')).not.toBe(a);
    expect(a).toMatch(/^whd_[a-z0-9]{25}$/);
  });

  it('sort by the event time like every other id', () => {
    const earlier = deliveryIdFor('evt_x', '2026-11-21T08:00:00.000Z', 'whe_one');
    const later = deliveryIdFor('evt_y', '2026-11-21T08:00:00.001Z', 'whe_one');
    expect(earlier < later).toBe(true);
  });
});
