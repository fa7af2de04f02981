/**
 * Order statistics and thresholds over pixel values, shared by the quality and tamper measures.
 */

/**
 * The middle of a few values (character pitches, row heights, line angles): the upper of the two
 * middle values for an even count, 0 for none. Sorting is cheap at these sizes; quantile() is for
 * pixel samples.
 */
export function upperMedian(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

/**
 * The q-quantile (0..1) by the lower nearest rank; NaN for no values. The rank is selected in
 * linear time rather than by sorting: the tamper measures take quantiles of up to ~300 000
 * samples per image, where the sort was most of their time. Same value as sorting.
 * `values` is left as it is; typed arrays let the measures collect samples without growing a
 * number[] sample by sample.
 *
 * A large sample is first narrowed by a histogram (histogramSelect): only the values of the one
 * bucket that holds the rank are copied and selected among. A small one (or one holding NaN or
 * an infinity, which have no place in a histogram) is copied whole and selected in (Floyd–Rivest).
 */
export function quantile(values: number[] | Float32Array | Float64Array, q: number): number {
  if (values.length === 0) return Number.NaN;
  const k = quantileRank(values.length, q);
  if (values.length >= HISTOGRAM_MIN_VALUES) {
    const v = histogramSelect(values, k);
    if (v !== null) return v;
  }
  // A copy (the caller's values keep their order); the constructor copies typed arrays in one
  // block, where Float64Array.from iterates value by value.
  const s = new Float64Array(values);
  // A NaN has no rank for comparisons: keep the sort's order (NaN last) in that rare case.
  for (let i = 0; i < s.length; i++) if (Number.isNaN(s[i])) return s.sort()[k]!;
  return select(s, k);
}

/**
 * The rank (0 = smallest) quantile(values, q) takes among n > 0 values: a caller that only
 * compares the quantile to a bar may count the values on either side of the bar instead.
 */
export function quantileRank(n: number, q: number): number {
  return Math.min(n - 1, Math.max(0, Math.floor(q * (n - 1))));
}

/**
 * From this many values on, the histogram pass pays: below it the copy and selection are a few
 * microseconds, less than clearing the histogram.
 */
const HISTOGRAM_MIN_VALUES = 4096;
/** Buckets of the histogram: a bucket holds about 1/1024 of a sample spread evenly. */
const BUCKETS = 1024;
/** The histogram's counts, reused (one synchronous call at a time on this thread). */
const bucketCounts = new Int32Array(BUCKETS + 1);

/**
 * The k-th smallest of `values` without reordering or copying them all: one pass for the range,
 * one counting the values per bucket, one copying out the bucket that holds rank k; the
 * selection then runs on that bucket alone (narrowed again while it is large). Exact: a value's
 * bucket never decreases as the value grows, so the values of bucket b are exactly the ranks
 * counted before it onwards. Null when the histogram cannot hold the values (a NaN, an infinity,
 * a range too small or too large to scale): the caller selects on a copy instead.
 *
 * Two bucketings. Non-negative floats in a typed array (most samples here: distances, grey
 * levels, powers, |Laplacian|) are bucketed by the high bits of their IEEE encoding (exponent
 * and leading mantissa), whose order is the values' order: buckets of equal *relative* width, so
 * a heavy tail (a screen tile's spectrum spans ten decades) does not crowd the rank into one
 * bucket. Other samples get buckets of equal width ⌊(v − min)·scale⌋ (a rounded subtraction,
 * product and truncation are each monotone).
 */
function histogramSelect(values: number[] | Float32Array | Float64Array, k: number): number | null {
  const n = values.length;
  let min = values[0]!;
  let max = min;
  // A sum turns NaN with any NaN value (or infinities of both signs): checked once, at the end,
  // rather than a test per value.
  let sum = 0;
  for (let i = 1; i < n; i++) {
    const v = values[i]!;
    if (v < min) min = v;
    else if (v > max) max = v;
    sum += v;
  }
  if (Number.isNaN(sum + min)) return null;
  if (min === max) return min;
  if (!Number.isFinite(max - min)) return null;
  const inBucket =
    min >= 0 && LITTLE_ENDIAN && !Array.isArray(values)
      ? bucketByBits(values, k, min, max)
      : bucketLinear(values, k, min, max);
  if (inBucket === null) return null;
  const [bucket, rank] = inBucket;
  // A bucket still large (values bunched in a small part of the range): narrowed again.
  if (bucket.length >= HISTOGRAM_MIN_VALUES) {
    const v = histogramSelect(bucket, rank);
    if (v !== null) return v;
  }
  return select(bucket, rank);
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** One value's encoding, for the keys of a range's ends. */
const scratch64 = new Float64Array(1);
const scratch64Words = new Uint32Array(scratch64.buffer);
const scratch32 = new Float32Array(1);
const scratch32Word = new Uint32Array(scratch32.buffer);

/**
 * The sort key of a non-negative float: the high word of its encoding, the sign bit cleared so
 * that −0 keys as +0 (they compare equal).
 */
function key64(v: number): number {
  scratch64[0] = v;
  return scratch64Words[1]! & 0x7fffffff;
}
function key32(v: number): number {
  scratch32[0] = v;
  return scratch32Word[0]! & 0x7fffffff;
}

/** The smallest shift that brings a key range under BUCKETS buckets. */
function shiftFor(range: number): number {
  let shift = 0;
  while (range >>> shift >= BUCKETS) shift++;
  return shift;
}

/** The bucket holding rank k (counts filled): its index, and the count of values below it. */
function rankBucket(k: number): [number, number] {
  const counts = bucketCounts;
  let bucket = 0;
  let below = 0;
  while (below + counts[bucket]! <= k) below += counts[bucket++]!;
  return [bucket, below];
}

/**
 * Non-negative floats bucketed by the high word of their encoding (key64 for doubles: the second
 * word of each, little-endian; key32 for singles: their one word): the rank's bucket and rank in
 * it. The words are read in place, no value is decoded to be bucketed.
 */
function bucketByBits(
  values: Float64Array | Float32Array,
  k: number,
  min: number,
  max: number,
): [Float64Array, number] | null {
  const doubles = values instanceof Float64Array;
  const key = doubles ? key64 : key32;
  const low = key(min);
  const range = key(max) - low;
  // Ends with the same high word differ in the low bits only: equal-width buckets suit them.
  if (range === 0) return bucketLinear(values, k, min, max);
  const shift = shiftFor(range);
  const stride = doubles ? 2 : 1;
  const words = new Uint32Array(values.buffer, values.byteOffset, stride * values.length);
  const counts = bucketCounts;
  counts.fill(0);
  for (let i = stride - 1; i < words.length; i += stride)
    counts[((words[i]! & 0x7fffffff) - low) >>> shift]!++;
  const [bucket, below] = rankBucket(k);
  const out = new Float64Array(counts[bucket]!);
  for (let i = stride - 1, j = 0, m = 0; i < words.length; i += stride, j++)
    if (((words[i]! & 0x7fffffff) - low) >>> shift === bucket) out[m++] = values[j]!;
  return [out, k - below];
}

/** Buckets of equal width over [min, max]: the rank's bucket and rank in it; null if unscalable. */
function bucketLinear(
  values: number[] | Float32Array | Float64Array,
  k: number,
  min: number,
  max: number,
): [Float64Array, number] | null {
  const scale = BUCKETS / (max - min);
  if (!Number.isFinite(scale) || scale === 0) return null;
  // (max − min)·scale may round to a hair above BUCKETS: one more bucket holds the top.
  const counts = bucketCounts;
  counts.fill(0);
  for (let i = 0; i < values.length; i++) counts[((values[i]! - min) * scale) | 0]!++;
  const [bucket, below] = rankBucket(k);
  const out = new Float64Array(counts[bucket]!);
  for (let i = 0, m = 0; i < values.length; i++) {
    const v = values[i]!;
    if ((((v - min) * scale) | 0) === bucket) out[m++] = v;
  }
  return [out, k - below];
}

/**
 * The k-th smallest value of `a` (reordered in place): Floyd and Rivest's SELECT. On a large
 * range it first selects within a small window around where the k-th value should fall (from a
 * sample's statistics), so the partition of the whole range starts from a pivot close to the
 * answer: about 1.5 n comparisons where a median-of-three quickselect needs 3 n or more, on the
 * 10⁴–10⁵ pixel samples the tamper measures rank.
 */
function select(a: Float64Array, k: number): number {
  floydRivest(a, k, 0, a.length - 1);
  return a[k]!;
}

function floydRivest(a: Float64Array, k: number, left: number, right: number): void {
  while (right > left) {
    // Window size and offsets of Floyd and Rivest's paper (constants 600, 0.5, 2/3).
    if (right - left > 600) {
      const n = right - left + 1;
      const m = k - left + 1;
      const z = Math.log(n);
      const s = 0.5 * Math.exp((2 * z) / 3);
      const sd = 0.5 * Math.sqrt((z * s * (n - s)) / n) * (m - n / 2 < 0 ? -1 : 1);
      const newLeft = Math.max(left, Math.floor(k - (m * s) / n + sd));
      const newRight = Math.min(right, Math.floor(k + ((n - m) * s) / n + sd));
      floydRivest(a, k, newLeft, newRight);
    }
    // Partition [left, right] around t = a[k].
    const t = a[k]!;
    let i = left;
    let j = right;
    swap(a, left, k);
    if (a[right]! > t) swap(a, left, right);
    while (i < j) {
      swap(a, i, j);
      i++;
      j--;
      while (a[i]! < t) i++;
      while (a[j]! > t) j--;
    }
    if (a[left] === t) swap(a, left, j);
    else {
      j++;
      swap(a, j, right);
    }
    // a[j] is now t in its final place.
    if (j <= k) left = j + 1;
    if (k <= j) right = j - 1;
  }
}

function swap(a: Float64Array, i: number, j: number): void {
  const t = a[i]!;
  a[i] = a[j]!;
  a[j] = t;
}

/** Otsu threshold of grey values (0..255): the level that best splits them into two classes. */
export function otsu(values: Float32Array | number[]): number {
  const hist = new Float64Array(256);
  for (const v of values) hist[Math.max(0, Math.min(255, Math.round(v)))]!++;
  const total = values.length;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * hist[i]!;
  let sumB = 0;
  let wB = 0;
  let best = 0;
  let threshold = 128;
  for (let t = 0; t < 256; t++) {
    wB += hist[t]!;
    if (wB === 0) continue;
    const wF = total - wB;
    if (wF === 0) break;
    sumB += t * hist[t]!;
    const mB = sumB / wB;
    const mF = (sum - sumB) / wF;
    const between = wB * wF * (mB - mF) ** 2;
    if (between > best) {
      best = between;
      threshold = t;
    }
  }
  return threshold;
}
