import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quantile, upperMedian } from '../../src/image/stats.ts';

/** The definition: sort, then the lower nearest rank. */
function bySorting(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const s = Float64Array.from(values).sort();
  return s[Math.min(s.length - 1, Math.max(0, Math.floor(q * (s.length - 1))))]!;
}

describe('quantile (linear-time selection)', () => {
  it('returns exactly the sorted value at the lower nearest rank', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.integer({ min: 0, max: 255 }), fc.double({ noNaN: true, min: -1e6, max: 1e6 })),
          {
            maxLength: 400,
          },
        ),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (values, q) => {
          expect(Object.is(quantile(values, q) + 0, bySorting(values, q) + 0)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('returns exactly the sorted value on large samples (the windowed selection) and typed arrays', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 40 }), fc.double({ noNaN: true, min: -1e3, max: 1e3 })), {
          minLength: 601,
          maxLength: 5000,
        }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (values, q) => {
          const expected = bySorting(values, q) + 0;
          expect(Object.is(quantile(values, q) + 0, expected)).toBe(true);
          expect(Object.is(quantile(Float64Array.from(values), q) + 0, expected)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('returns exactly the sorted value on samples narrowed by the histogram (4096 values and more)', () => {
    // Value shapes the histogram must not misplace: a few repeated levels (grey values), a
    // range a few ulps wide, subnormals, huge magnitudes, negatives and zeros of both signs.
    // Neighbouring shapes are mixed in one sample: the first four pairs are non-negative (bucketed
    // by their encoding), the rest hold negatives (equal-width buckets).
    const shapes = [
      fc.integer({ min: 0, max: 255 }),
      fc.constantFrom(1, 1 + 2 ** -52, 1 + 2 ** -51, 1 + 3 * 2 ** -52),
      fc.double({ noNaN: true, noDefaultInfinity: true, min: 0, max: 1e300 }),
      fc.constantFrom(-0, 0, 5e-324, 1e-310, 2 ** -1022, 3, 1e300),
      fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e-300, max: 1e-300 }),
      fc.double({ noNaN: true, min: -1e300, max: 1e300 }),
      fc.constantFrom(0, -0, 0.5, -0.5),
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: shapes.length - 1 }).chain((s) =>
          fc.array(fc.oneof(shapes[s]!, shapes[(s + 1) % shapes.length]!), {
            minLength: 4096,
            maxLength: 9000,
          }),
        ),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (values, q) => {
          const expected = bySorting(values, q) + 0;
          expect(Object.is(quantile(values, q) + 0, expected)).toBe(true);
          expect(Object.is(quantile(Float64Array.from(values), q) + 0, expected)).toBe(true);
          const single = Float32Array.from(values);
          expect(Object.is(quantile(single, q) + 0, bySorting(Array.from(single), q) + 0)).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('keeps the sort order for large samples holding NaN or infinities, and leaves them unchanged', () => {
    const values = Array.from({ length: 6000 }, (_, i) => (i * 7919) % 6000);
    const copy = [...values];
    expect(quantile(values, 0.25)).toBe(bySorting(values, 0.25));
    expect(values).toEqual(copy);
    const withNaN = [...values, Number.NaN];
    expect(quantile(withNaN, 1)).toBeNaN();
    expect(quantile(withNaN, 0.5)).toBe(bySorting(withNaN, 0.5));
    const withInfinities = [...values, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
    expect(quantile(withInfinities, 1)).toBe(Number.POSITIVE_INFINITY);
    expect(quantile(withInfinities, 0)).toBe(Number.NEGATIVE_INFINITY);
    expect(quantile(withInfinities, 0.5)).toBe(bySorting(withInfinities, 0.5));
    expect(quantile(new Float64Array(5000).fill(3), 0.7)).toBe(3);
  });

  it('handles runs of equal values, sorted input, NaN and emptiness', () => {
    const sorted = Array.from({ length: 10_001 }, (_, i) => i);
    expect(quantile(sorted, 0.5)).toBe(5000);
    expect(quantile([...sorted].reverse(), 0.9)).toBe(9000);
    expect(quantile(new Array(1000).fill(7), 0.3)).toBe(7);
    expect(quantile(new Float32Array([3, 1, 2]), 1)).toBe(3);
    expect(quantile([Number.NaN, 1, 2], 1)).toBeNaN();
    expect(quantile([Number.NaN, 1, 2], 0)).toBe(1);
    expect(quantile([], 0.5)).toBeNaN();
  });
});

describe('upperMedian', () => {
  it('takes the middle value, the upper of two for an even count, 0 for none, leaving the input as it is', () => {
    const xs = [9, 3, 7];
    expect(upperMedian(xs)).toBe(7);
    expect(xs).toEqual([9, 3, 7]);
    expect(upperMedian([4, 1, 3, 2])).toBe(3);
    expect(upperMedian([])).toBe(0);
  });
});
