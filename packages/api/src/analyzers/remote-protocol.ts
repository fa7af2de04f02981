import type { AnalysisOutcome, ImageKind } from '../analyzer.ts';

/**
 * What the API sends to the analyzer Lambda: references to the encrypted images in S3, never
 * the images themselves (Lambda's synchronous payload is limited to 6 MB).
 */
export interface RemoteAnalysisRequest {
  images: Partial<Record<ImageKind, { key: string; content_type: string }>>;
  document_type?: 'passport' | 'cni';
}

export type RemoteAnalysisResponse = AnalysisOutcome;
