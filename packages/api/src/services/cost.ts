/**
 * The cost of one verification, recorded with it so finance can sum cost per organisation
 * per month. Prices are AWS list prices (us-east-1, 2026) and live here only.
 */
export const COST_MODEL = {
  /** Lambda, arm64, per GB-second. */
  lambdaGbSecondUsd: 0.0000133334,
  /** Memory given to the analyzer function, in GB. */
  analyzerMemoryGb: 3,
  /** S3 Standard storage per GB-month. */
  s3GbMonthUsd: 0.023,
  /** S3 PUT/DELETE-class requests, per request. */
  s3RequestUsd: 0.000005,
} as const;

export interface CostInput {
  analyzerMs: number;
  storedBytes: number;
  /** How long the images are kept (0 in test mode). */
  retentionDays: number;
  s3Requests: number;
}

const round = (usd: number) => Math.round(usd * 1e8) / 1e8;

export function estimateCost(input: CostInput) {
  const compute = (input.analyzerMs / 1000) * COST_MODEL.analyzerMemoryGb * COST_MODEL.lambdaGbSecondUsd;
  const storage =
    (input.storedBytes / 1024 ** 3) * COST_MODEL.s3GbMonthUsd * (input.retentionDays / 30) +
    input.s3Requests * COST_MODEL.s3RequestUsd;
  return {
    analyzer_ms: Math.round(input.analyzerMs),
    compute_usd: round(compute),
    storage_usd: round(storage),
    total_usd: round(compute + storage),
  };
}
