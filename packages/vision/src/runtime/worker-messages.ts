import type {
  AnalysisOutcome,
  ImageKind,
  PrecheckIssue,
  PrecheckRequest,
  RequestedDocumentType,
} from '@idv/core';

/** What the pool (worker-analyzer.ts) and an analysis worker (analysis-worker.ts) say to each other. */

/** The images of one analysis as they cross the thread boundary: the bytes only. */
export interface WorkerAnalysisRequest {
  images: Partial<Record<ImageKind, { bytes: Uint8Array }>>;
  documentType?: RequestedDocumentType;
}

export type WorkerTask =
  | { id: number; task: 'analyze'; request: WorkerAnalysisRequest }
  | { id: number; task: 'precheck'; request: PrecheckRequest }
  | { id: number; task: 'readMrz'; bytes: Uint8Array };

export type WorkerReply =
  | { ready: true }
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { name: string; message: string; stack?: string } };

/** The value each task answers with. */
export interface WorkerResults {
  analyze: AnalysisOutcome;
  precheck: { issue: PrecheckIssue | null };
  readMrz: { lines: string[] } | null;
}
