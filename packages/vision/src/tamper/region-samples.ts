/**
 * Pixel samples of a field and of the four parts of the ring around it (field-background.ts's
 * ringRegion), collected in one pass into typed arrays and split by region afterwards: the
 * field detectors take quantiles of tens of thousands of pixels per field, and growing five
 * number[] pixel by pixel was most of their time.
 */
export const INSIDE = 4;

export class RegionSamples {
  private readonly values: Float64Array;
  private readonly regions: Uint8Array;
  private n = 0;

  constructor(capacity: number) {
    this.values = new Float64Array(capacity);
    this.regions = new Uint8Array(capacity);
  }

  /** One sample of `region` (0 above, 1 below, 2 before, 3 after, INSIDE). */
  add(region: number, value: number): void {
    this.regions[this.n] = region;
    this.values[this.n++] = value;
  }

  /** The samples of each region, indexed like `add`'s regions (in the order they were added). */
  split(): Float64Array[] {
    const counts = [0, 0, 0, 0, 0];
    for (let i = 0; i < this.n; i++) counts[this.regions[i]!]!++;
    const starts = [0, 0, 0, 0, 0];
    for (let k = 1; k < 5; k++) starts[k] = starts[k - 1]! + counts[k - 1]!;
    const at = [...starts];
    const out = new Float64Array(this.n);
    for (let i = 0; i < this.n; i++) out[at[this.regions[i]!]!++] = this.values[i]!;
    return starts.map((s, k) => out.subarray(s, s + counts[k]!));
  }
}
