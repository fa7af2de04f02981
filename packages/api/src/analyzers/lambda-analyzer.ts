import { InvokeCommand, type InvokeCommandOutput, type LambdaClient } from '@aws-sdk/client-lambda';
import type { AnalysisOutcome, AnalysisRequest, Analyzer, RemoteAnalysisRequest } from '@idv/core';
import { AnalysisUnavailableError } from '../analyzer.ts';

/**
 * The analyzer on AWS: a container-image Lambda (functions/analyzer.ts) invoked synchronously
 * with S3 references. A function error, a throttle or a malformed answer is "analysis
 * unavailable" (503); the caller cleans up.
 */
export function createLambdaAnalyzer(
  lambda: LambdaClient,
  functionName: string,
  options: { callerRequestId?: () => string | undefined } = {},
): Analyzer {
  return {
    async analyze(request: AnalysisRequest): Promise<AnalysisOutcome> {
      const payload: RemoteAnalysisRequest = {
        images: {},
        document_type: request.documentType,
        caller_request_id: options.callerRequestId?.(),
      };
      for (const [kind, image] of Object.entries(request.images)) {
        if (image)
          payload.images[kind as keyof typeof payload.images] = {
            key: image.storageKey,
            content_type: image.contentType,
          };
      }
      let out: InvokeCommandOutput;
      try {
        out = await lambda.send(
          new InvokeCommand({
            FunctionName: functionName,
            Payload: new TextEncoder().encode(JSON.stringify(payload)),
          }),
        );
      } catch (error) {
        throw new AnalysisUnavailableError('the analyzer could not be invoked', { cause: error });
      }
      const text = out.Payload ? new TextDecoder().decode(out.Payload) : '';
      if (out.FunctionError) throw new AnalysisUnavailableError(`the analyzer failed: ${text.slice(0, 500)}`);
      try {
        const result = JSON.parse(text) as AnalysisOutcome;
        if (result.kind === 'observations' || result.kind === 'refused') return result;
      } catch {}
      throw new AnalysisUnavailableError('the analyzer returned an unexpected answer');
    },
  };
}
