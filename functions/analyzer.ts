/**
 * AWS Lambda (container image): the analyzer. A verification's analysis receives S3 references
 * (RemoteAnalysisRequest in packages/core/src/analysis.ts), reads and decrypts the images and
 * returns observations; a session's pre-check or chip-key read receives its one photo inline and
 * stores nothing. Models load once per instance, at init, not per request. Each invocation writes
 * one cost line; an analysis's line names the API invocation that called it (`caller_request_id`).
 */
import type { RemoteAnalysisRequest, RemoteAnalyzerEvent } from '@idv/core';
import { createStore, storeConfigFromEnv } from '@idv/store';
import { analyzeImages, precheckImage, readMrzLines, warmUpAnalyzer } from '@idv/vision';
import { type InvocationContext, withInvocationCost } from './invocation-cost.ts';
import { applyLinkedSecrets } from './linked-secrets.ts';

applyLinkedSecrets();
const store = createStore(storeConfigFromEnv());
const ready = warmUpAnalyzer();

export async function handler(event: RemoteAnalyzerEvent, context?: InvocationContext) {
  const task = event.task ?? 'analyze';
  return withInvocationCost(
    'analyzer',
    context,
    () =>
      event.task === 'precheck' || event.task === 'read_mrz'
        ? { task }
        : {
            task,
            caller_request_id: event.caller_request_id ?? null,
            images: Object.keys(event.images).length,
          },
    async () => {
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
    },
  );
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
