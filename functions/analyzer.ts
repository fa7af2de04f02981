/**
 * AWS Lambda (container image): the analyzer. A verification's analysis receives S3 references
 * (RemoteAnalysisRequest in packages/core/src/analysis.ts), reads and decrypts the images and
 * returns observations; a session's pre-check or chip-key read receives its one photo inline and
 * stores nothing. Models load once per instance, at init, not per request.
 */
import type { RemoteAnalysisRequest, RemoteAnalyzerEvent } from '@idv/core';
import { createStore, storeConfigFromEnv } from '@idv/store';
import { analyzeImages, precheckImage, readMrzLines, warmUpAnalyzer } from '@idv/vision';

const store = createStore(storeConfigFromEnv());
const ready = warmUpAnalyzer();

export async function handler(event: RemoteAnalyzerEvent) {
  await ready;
  switch (event.task) {
    case 'precheck':
      return precheckImage(Buffer.from(event.image_base64, 'base64'), {
        documentType: event.document_type,
        side: event.side,
      });
    case 'read_mrz':
      return readMrzLines(Buffer.from(event.image_base64, 'base64'));
    default:
      return analyze(event);
  }
}

async function analyze(event: RemoteAnalysisRequest) {
  const images: Parameters<typeof analyzeImages>[0]['images'] = {};
  for (const [kind, ref] of Object.entries(event.images)) {
    if (!ref) continue;
    const image = await store.images.get(ref.key);
    if (!image) throw new Error(`image ${kind} is missing from storage`);
    images[kind as keyof typeof images] = { bytes: image.bytes };
  }
  return analyzeImages({ images, documentType: event.document_type });
}
