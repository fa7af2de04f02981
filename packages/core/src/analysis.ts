import type { ImageKind } from './image-kinds.ts';
import type { Observations } from './observations.ts';

/**
 * The analyzer boundary, written once: what the API asks the analyzer (vision, in-process or
 * in its Lambda) and what it answers. The API judges nothing here and vision decides nothing.
 */

/** A document type imposed by the caller (sessions); the analyzer otherwise recognises it. */
export type RequestedDocumentType = 'passport' | 'cni';

/** One uploaded image: its bytes (in-process) and where it is stored (for a remote analyzer). */
export interface AnalysisImage {
  bytes: Uint8Array;
  contentType: string;
  /** The S3 key of the encrypted copy, while the analysis runs. */
  storageKey: string;
}

export interface AnalysisRequest {
  images: Partial<Record<ImageKind, AnalysisImage>>;
  documentType?: RequestedDocumentType;
}

/** Why one image is refused before any reading. */
export type AnalysisRefusalCode = 'unreadable' | 'invalid_image' | 'image_too_large';

/**
 * What an analysis of one verification's images gives: observations, or the refusal of one
 * image before any reading (too blurry, not an image, too large).
 */
export type AnalysisOutcome =
  | { kind: 'observations'; observations: Observations }
  | { kind: 'refused'; code: AnalysisRefusalCode; image: ImageKind; message: string };

/**
 * The boundary between the API and image analysis. Locally it runs in-process; on AWS it is a
 * container-image Lambda invoked with references to the images in S3 (the 6 MB synchronous
 * payload limit rules out sending three 12 MB images inline).
 */
export interface Analyzer {
  analyze(request: AnalysisRequest): Promise<AnalysisOutcome>;
  /** Capture advice on one document photo (session pre-check); absent where not offered. */
  precheck?(request: PrecheckRequest): Promise<{ issue: PrecheckIssue | null }>;
  /** The MRZ lines seen on one photo, or null (session chip key); absent where not offered. */
  readMrz?(bytes: Uint8Array): Promise<{ lines: string[] } | null>;
}

/** The spec's pre-check answers, the most basic problem first. */
export type PrecheckIssue =
  | 'not_a_document'
  | 'wrong_side'
  | 'cut_off'
  | 'obstructed'
  | 'glare'
  | 'illegible';

/** One photo to pre-check, with what the capture step expects (`cni_old`: Niger's paper card). */
export interface PrecheckRequest {
  bytes: Uint8Array;
  documentType?: 'cni' | 'cni_old' | 'passport';
  side?: 'front' | 'back';
}

/**
 * What the API sends to the analyzer Lambda (functions/analyzer.ts): references to the
 * encrypted images in S3, never the images themselves. The Lambda answers an AnalysisOutcome.
 */
export interface RemoteAnalysisRequest {
  images: Partial<Record<ImageKind, { key: string; content_type: string }>>;
  document_type?: RequestedDocumentType;
  /** The calling API invocation's request id, so finance can tie the analyzer's cost line to it. */
  caller_request_id?: string;
}
export type RemoteAnalysisResponse = AnalysisOutcome;

/**
 * Largest photo the API sends inline (base64) to the analyzer Lambda for a session's pre-check
 * or chip key. Base64 grows it by a third and Lambda's synchronous payload stops at 6 MB; the
 * capture page sends about 2000 px JPEGs (well under 1 MB), so only an unusual upload is
 * larger, and it then gets the routes' "not checked" answer rather than an error.
 */
export const REMOTE_INLINE_IMAGE_BYTES = 4 * 1024 * 1024;

/** The session helpers on the analyzer Lambda: one photo travels inline, nothing is stored. */
export type RemoteSessionTask =
  | {
      task: 'precheck';
      image_base64: string;
      document_type?: PrecheckRequest['documentType'];
      side?: PrecheckRequest['side'];
    }
  | { task: 'read_mrz'; image_base64: string };

/** Every event the analyzer Lambda takes: an analysis (no `task`, or `analyze`) or a session task. */
export type RemoteAnalyzerEvent = (RemoteAnalysisRequest & { task?: 'analyze' }) | RemoteSessionTask;
