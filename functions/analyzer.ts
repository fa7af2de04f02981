/**
 * AWS Lambda (container image): analyses the images of one verification. Receives S3
 * references (RemoteAnalysisRequest in packages/core/src/analysis.ts), reads and decrypts the images,
 * returns observations. Models load once per instance, at init, not per request. Each invocation
 * writes one cost line tied to the API invocation that called it (`caller_request_id`).
 */
import type { RemoteAnalysisRequest, RemoteAnalysisResponse } from '@idv/core';
import { createStore, storeConfigFromEnv } from '@idv/store';
import { analyzeImages, warmUpAnalyzer } from '@idv/vision';
import { type InvocationContext, withInvocationCost } from './invocation-cost.ts';
import { applyLinkedSecrets } from './linked-secrets.ts';

applyLinkedSecrets();
const store = createStore(storeConfigFromEnv());
const ready = warmUpAnalyzer();

export async function handler(
  event: RemoteAnalysisRequest,
  context?: InvocationContext,
): Promise<RemoteAnalysisResponse> {
  return withInvocationCost(
    'analyzer',
    context,
    () => ({ caller_request_id: event.caller_request_id ?? null, images: Object.keys(event.images).length }),
    async () => {
      await ready;
      const images: Parameters<typeof analyzeImages>[0]['images'] = {};
      for (const [kind, ref] of Object.entries(event.images)) {
        if (!ref) continue;
        const image = await store.images.get(ref.key);
        if (!image) throw new Error(`image ${kind} is missing from storage`);
        images[kind as keyof typeof images] = { bytes: image.bytes };
      }
      return analyzeImages({ images, documentType: event.document_type });
    },
  );
}
