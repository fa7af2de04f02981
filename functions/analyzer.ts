/**
 * AWS Lambda (container image): analyses the images of one verification. Receives S3
 * references (RemoteAnalysisRequest in packages/core/src/analysis.ts), reads and decrypts the images,
 * returns observations. Models load once per instance, at init, not per request.
 */
import type { RemoteAnalysisRequest, RemoteAnalysisResponse } from '@idv/core';
import { createStore, storeConfigFromEnv } from '@idv/store';
import { analyzeImages, warmUpAnalyzer } from '@idv/vision';

const store = createStore(storeConfigFromEnv());
const ready = warmUpAnalyzer();

export async function handler(event: RemoteAnalysisRequest): Promise<RemoteAnalysisResponse> {
  await ready;
  const images: Parameters<typeof analyzeImages>[0]['images'] = {};
  for (const [kind, ref] of Object.entries(event.images)) {
    if (!ref) continue;
    const image = await store.images.get(ref.key);
    if (!image) throw new Error(`image ${kind} is missing from storage`);
    images[kind as keyof typeof images] = { bytes: image.bytes };
  }
  return analyzeImages({ images, documentType: event.document_type });
}
