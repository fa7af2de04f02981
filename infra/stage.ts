/**
 * Per-stage settings read when the stack runs: names, tags, the public domain and the time
 * budget. Every stage is named after its branch (see .github/workflows/stage.yml).
 */

/** The service name in tags and in the physical names of resources created outside SST components. */
export const SERVICE = 'idv';

/** `idv-<stage>-<name>`, for resources whose physical name SST does not set (IAM, ECR). */
export function stageName(name: string): string {
  return `${$app.name}-${$app.stage}-${name}`.toLowerCase();
}

/**
 * The stage's custom domain, when it has one: production answers on IDV_DOMAIN (e.g.
 * api.example.com); a branch stage on <stage>.IDV_BRANCH_DOMAIN when that is set. Without a
 * domain the stage answers on the gateway's own URL. Both need a Route 53 hosted zone.
 */
export function stageDomain(): string | undefined {
  if ($app.stage === 'production') return process.env.IDV_DOMAIN || undefined;
  const branchDomain = process.env.IDV_BRANCH_DOMAIN;
  return branchDomain ? `${$app.stage}.${branchDomain}` : undefined;
}

/**
 * The time budget, end to end (docs/decisions.md, "Time-outs on AWS"): API Gateway HTTP APIs
 * cut every request at 30 s and cannot be raised, so everything below it must give up first and
 * answer in the spec's envelope: the analysis (503 `analysis_unavailable`) at 25 s, the API
 * function at 29 s. CloudFront in front (infra/edge.ts) waits 60 s for the gateway, so it never
 * cuts first. The spec's client waits at least 60 s, longer than any of them.
 */
export const TIMEOUTS = {
  edgeOriginReadSeconds: 60,
  gatewaySeconds: 30,
  apiFunctionSeconds: 29,
  analysisMs: 25_000,
  analyzerFunctionSeconds: 25,
} as const;

/**
 * The analyzer's memory. Lambda sizes the CPU with the memory (one full vCPU at 1769 MB, close to
 * two here) and the analysis runs its reading and face models side by side, so it is the CPU,
 * not the memory, that sets this figure: the analysis alone (in process, as here) holds about
 * 410 MB resident after warm-up and 20 analyses (550 MB before onnxruntime's memory pattern was
 * dropped and MALLOC_ARENA_MAX=2 set; docs/decisions.md "Memory (issue 17)"), well inside it.
 */
export const ANALYZER_MEMORY_MB = 3008;
