/**
 * Order statistics and thresholds over pixel values, shared by the quality and tamper measures.
 */

/**
 * The q-quantile (0..1) by the lower nearest rank; NaN for no values. The rank is selected in
 * linear time (quickselect) rather than by sorting: the tamper measures take quantiles of up to
 * ~200 000 samples per image, where the sort was most of their time. Same value as sorting.
 * `values` is left as it is (the selection works on a copy); typed arrays let the measures
 * collect samples without growing a number[] sample by sample.
 */
export function quantile(values: number[] | Float32Array | Float64Array, q: number): number {
  if (values.length === 0) return Number.NaN;
  // A copy (the caller's values keep their order); the constructor copies typed arrays in one
  // block, where Float64Array.from iterates value by value.
  const s = new Float64Array(values);
  const k = Math.min(s.length - 1, Math.max(0, Math.floor(q * (s.length - 1))));
  // A NaN has no rank for comparisons: keep the sort's order (NaN last) in that rare case.
  for (let i = 0; i < s.length; i++) if (Number.isNaN(s[i])) return s.sort()[k]!;
  return select(s, k);
}

/** The k-th smallest value of `a` (reordered in place): Hoare's quickselect, median-of-three pivot. */
function select(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    const mid = (lo + hi) >> 1;
    // Median of three as the pivot: sorted input (common in pixel runs) stays linear.
    if (a[mid]! < a[lo]!) swap(a, mid, lo);
    if (a[hi]! < a[lo]!) swap(a, hi, lo);
    if (a[hi]! < a[mid]!) swap(a, hi, mid);
    const pivot = a[mid]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        swap(a, i, j);
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
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
