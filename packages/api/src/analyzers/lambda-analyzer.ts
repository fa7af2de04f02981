import { InvokeCommand, type InvokeCommandOutput, type LambdaClient } from '@aws-sdk/client-lambda';
import {
  type AnalysisOutcome,
  type AnalysisRequest,
  type Analyzer,
  type PrecheckIssue,
  type PrecheckRequest,
  REMOTE_INLINE_IMAGE_BYTES,
  type RemoteAnalyzerEvent,
} from '@idv/core';
import { AnalysisUnavailableError } from '../analyzer.ts';

/**
 * The analyzer on AWS: a container-image Lambda (functions/analyzer.ts) invoked synchronously.
 * A verification's images travel as S3 references; a session's single pre-check or chip-key
 * photo travels inline (it is never stored). A function error, a throttle or a malformed
 * answer is "analysis unavailable"; the caller decides what that means (503 for a
 * verification, "not checked" for the session helpers).
 */
export function createLambdaAnalyzer(
  lambda: LambdaClient,
  functionName: string,
  options: { callerRequestId?: () => string | undefined } = {},
): Analyzer {
  async function invoke(event: RemoteAnalyzerEvent): Promise<unknown> {
    let out: InvokeCommandOutput;
    try {
      out = await lambda.send(
        new InvokeCommand({
          FunctionName: functionName,
          Payload: new TextEncoder().encode(JSON.stringify(event)),
        }),
      );
    } catch (error) {
      throw new AnalysisUnavailableError('the analyzer could not be invoked', { cause: error });
    }
    const text = out.Payload ? new TextDecoder().decode(out.Payload) : '';
    if (out.FunctionError) throw new AnalysisUnavailableError(`the analyzer failed: ${text.slice(0, 500)}`);
    try {
      return JSON.parse(text);
    } catch {
      throw new AnalysisUnavailableError('the analyzer returned an unexpected answer');
    }
  }

  function inline(bytes: Uint8Array): string {
    if (bytes.byteLength > REMOTE_INLINE_IMAGE_BYTES) {
      throw new AnalysisUnavailableError('the photo is too large to send to the analyzer inline');
    }
    return Buffer.from(bytes).toString('base64');
  }

  return {
    async analyze(request: AnalysisRequest): Promise<AnalysisOutcome> {
      const event: RemoteAnalyzerEvent = {
        images: {},
        document_type: request.documentType,
        caller_request_id: options.callerRequestId?.(),
      };
      for (const [kind, image] of Object.entries(request.images)) {
        if (image)
          event.images[kind as keyof typeof event.images] = {
            key: image.storageKey,
            content_type: image.contentType,
          };
      }
      const result = (await invoke(event)) as AnalysisOutcome | null;
      if (result?.kind === 'observations' || result?.kind === 'refused') return result;
      throw new AnalysisUnavailableError('the analyzer returned an unexpected answer');
    },

    async precheck(request: PrecheckRequest): Promise<{ issue: PrecheckIssue | null }> {
      const result = (await invoke({
        task: 'precheck',
        image_base64: inline(request.bytes),
        document_type: request.documentType,
        side: request.side,
      })) as { issue?: unknown } | null;
      if (result && (typeof result.issue === 'string' || result.issue === null)) {
        return { issue: result.issue as PrecheckIssue | null };
      }
      throw new AnalysisUnavailableError('the analyzer returned an unexpected pre-check answer');
    },

    async readMrz(bytes: Uint8Array): Promise<{ lines: string[] } | null> {
      const result = (await invoke({ task: 'read_mrz', image_base64: inline(bytes) })) as {
        lines?: unknown;
      } | null;
      if (result === null) return null;
      if (Array.isArray(result.lines) && result.lines.every((l) => typeof l === 'string')) {
        return { lines: result.lines as string[] };
      }
      throw new AnalysisUnavailableError('the analyzer returned an unexpected MRZ answer');
    },
  };
}
