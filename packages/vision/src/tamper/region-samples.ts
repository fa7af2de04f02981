/**
 * Pixel samples of a field and of the four parts of the ring around it (field-background.ts's
 * ringSpans), collected in one pass into typed arrays: the field detectors take quantiles of
 * tens of thousands of pixels per field, and growing five number[] pixel by pixel was most of
 * their time. Each region's samples go straight to its own stretch of one buffer, sized by the
 * caller from the ring's spans (ringRegionSizes), so no split pass or copy is needed after.
 */
export const INSIDE = 4;

export class RegionSamples {
  private readonly values: Float64Array;
  /** Where each region's stretch starts, and where its next sample goes. */
  private readonly starts: Int32Array;
  private readonly next: Int32Array;

  /** `capacities`: the most samples each region (0 above, 1 below, 2 before, 3 after, INSIDE) gets. */
  constructor(capacities: readonly number[]) {
    this.starts = new Int32Array(5);
    for (let k = 1; k < 5; k++) this.starts[k] = this.starts[k - 1]! + (capacities[k - 1] ?? 0);
    this.values = new Float64Array(this.starts[4]! + (capacities[4] ?? 0));
    this.next = this.starts.slice();
  }

  /** One sample of `region` (0 above, 1 below, 2 before, 3 after, INSIDE), within its capacity. */
  add(region: number, value: number): void {
    this.values[this.next[region]!++] = value;
  }

  /** How many samples `region` has had so far. */
  count(region: number): number {
    return this.next[region]! - this.starts[region]!;
  }

  /** The samples of each region, indexed like `add`'s regions (in the order they were added). */
  split(): Float64Array[] {
    return [0, 1, 2, 3, 4].map((k) => this.values.subarray(this.starts[k]!, this.next[k]!));
  }
}
