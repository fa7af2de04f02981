/**
 * One structured JSON line per Lambda invocation, for finance (docs/cost.md sums them with
 * CloudWatch Logs Insights). Lambda bills in 1 ms steps, so the billed time is the handler's
 * duration rounded up; the platform's own REPORT line also counts the init phase of a cold start,
 * which this line leaves out (docs/cost.md explains the gap).
 */

/** The part of the Lambda context used here (the runtime passes more). */
export interface InvocationContext {
  awsRequestId?: string;
  memoryLimitInMB?: string | number;
  functionName?: string;
}

export interface CostFields {
  verification_id?: string | null;
  organisation?: string | null;
  mode?: string | null;
  /** Anything else worth summing (e.g. the analyzer time the API waited for). */
  [extra: string]: unknown;
}

export interface InvocationCostLine extends CostFields {
  type: 'invocation_cost';
  function: string;
  request_id: string | null;
  verification_id: string | null;
  organisation: string | null;
  mode: string | null;
  duration_ms: number;
  memory_mb: number;
  billed_ms: number;
  /** UTC calendar month (YYYY-MM), so a query can group by month without date arithmetic. */
  month: string;
}

export function invocationCostLine(
  fn: string,
  context: InvocationContext | undefined,
  durationMs: number,
  fields: CostFields,
): InvocationCostLine {
  const duration = Math.max(0, durationMs);
  return {
    ...fields,
    type: 'invocation_cost',
    function: fn,
    request_id: context?.awsRequestId ?? null,
    verification_id: fields.verification_id ?? null,
    organisation: fields.organisation ?? null,
    mode: fields.mode ?? null,
    duration_ms: Math.round(duration * 10) / 10,
    memory_mb: Number(context?.memoryLimitInMB ?? process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE ?? 0),
    billed_ms: Math.max(1, Math.ceil(duration)),
    month: new Date().toISOString().slice(0, 7),
  };
}

/**
 * Runs one invocation and writes its cost line afterwards, whether it succeeded or threw.
 * `fields` is read after the work, so the handler can fill it in as it learns the ids.
 */
export async function withInvocationCost<T>(
  fn: string,
  context: InvocationContext | undefined,
  fields: () => CostFields,
  work: () => Promise<T>,
): Promise<T> {
  const startedAt = performance.now();
  try {
    return await work();
  } finally {
    console.log(JSON.stringify(invocationCostLine(fn, context, performance.now() - startedAt, fields())));
  }
}
