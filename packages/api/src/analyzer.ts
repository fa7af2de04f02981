import type { AnalysisOutcome, ImageSide } from '@idv/core';

export type { AnalysisOutcome };
export type ImageKind = ImageSide;

/** One uploaded image: its bytes (in-process) and where it is stored (for a remote analyzer). */
export interface AnalysisImage {
  bytes: Uint8Array;
  contentType: string;
  /** The S3 key of the encrypted copy, while the analysis runs. */
  storageKey: string;
}

export interface AnalysisRequest {
  images: Partial<Record<ImageKind, AnalysisImage>>;
  /** A document type imposed by the caller (sessions), when known. */
  documentType?: 'passport' | 'cni';
}

/**
 * The boundary between the API and image analysis. Locally it runs in-process; on AWS it is a
 * container-image Lambda invoked with references to the images in S3 (the 6 MB synchronous
 * payload limit rules out sending three 12 MB images inline).
 */
export interface Analyzer {
  analyze(request: AnalysisRequest): Promise<AnalysisOutcome>;
  /** Capture advice on one document photo (session pre-check); absent when not offered. */
  precheck?(request: PrecheckRequest): Promise<{ issue: PrecheckIssue | null }>;
  /** The MRZ lines seen on one photo, or null (session chip key); absent when not offered. */
  readMrz?(bytes: Uint8Array): Promise<{ lines: string[] } | null>;
}

/** Spec's pre-check answers, the most basic problem first. */
export type PrecheckIssue =
  | 'not_a_document'
  | 'wrong_side'
  | 'cut_off'
  | 'obstructed'
  | 'glare'
  | 'illegible';

export interface PrecheckRequest {
  bytes: Uint8Array;
  documentType?: 'cni' | 'cni_old' | 'passport';
  side?: 'front' | 'back';
}

/** Thrown by analyzers when the analysis itself failed or timed out (→ 503). */
export class AnalysisUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AnalysisUnavailableError';
  }
}
