/**
 * The analyzer contract (request, outcome, image kinds, the Lambda's wire format) lives in
 * `@idv/core` (analysis.ts); what stays here is the API's own reading of a failed analysis.
 */

/** Thrown by analyzers when the analysis itself failed or timed out (→ 503). */
export class AnalysisUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AnalysisUnavailableError';
  }
}
