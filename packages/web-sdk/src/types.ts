/**
 * Public types of the web SDK. This file holds declarations only: the build copies it into
 * the published typings (`/sdk/v1.d.ts`).
 */

export type Locale = 'fr' | 'en';

/** The document the end user photographs; `cni_old` is Niger's paper card. */
export type CaptureDocument = 'passport' | 'cni' | 'cni_old';

/** A failure the flow could not recover from (the user sees it explained too). */
export interface CaptureError {
  /** The API's error code (`session_expired`, `session_completed`, `unauthorized`, …) or `network`. */
  code: string;
  message: string;
}

/** The verification returned by the upload (the same object as `POST /v1/verify`). */
export interface CaptureResult {
  id: string;
  verdict: string;
  [field: string]: unknown;
}

export interface MountOptions {
  /** The session id (`ses_…`) from `POST /v1/sessions`. */
  sessionId: string;
  /** The session's client token (`vn_ct_…`); single use. */
  clientToken: string;
  /** Interface language; by default the browser's (French when it prefers French, else English). */
  locale?: Locale;
  /** The API's base address; by default the address the SDK was loaded from. */
  baseUrl?: string;
  /** The document imposed by the session, when the customer opened it with `document_type`. */
  documentType?: 'passport' | 'cni';
  /** Called once the upload succeeded, with the verification. */
  onComplete?: (verification: CaptureResult) => void;
  /** Called when the flow stops on an error the user cannot fix (expired session, used link…). */
  onError?: (error: CaptureError) => void;
}

export interface MountedCapture {
  /** Removes the flow from the page and stops the camera. */
  unmount(): void;
}
