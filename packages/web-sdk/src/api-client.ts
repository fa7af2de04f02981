import type { CaptureResult } from './types.ts';

/** An answer of the API that is not a success, with its envelope's code. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** The network dropped the request (no HTTP answer at all). */
export class NetworkFailure extends Error {}

export interface SessionClient {
  precheck(
    image: Blob,
    documentType: string,
    side: 'front' | 'back',
  ): Promise<{ issue: string | null; checked: boolean }>;
  upload(parts: Record<string, Blob>, onProgress: (share: number) => void): Promise<CaptureResult>;
}

const PRECHECK_TIMEOUT_MS = 15_000;
/** Uploads wait for the analysis: the spec gives at least 60 s to the client. */
const UPLOAD_TIMEOUT_MS = 90_000;

export function sessionClient(baseUrl: string, sessionId: string, token: string): SessionClient {
  const root = `${baseUrl.replace(/\/$/, '')}/v1/sessions/${encodeURIComponent(sessionId)}`;
  return {
    async precheck(image, documentType, side) {
      const form = new FormData();
      form.append('image', image, 'capture.jpg');
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), PRECHECK_TIMEOUT_MS);
      try {
        const query = `?document_type=${encodeURIComponent(documentType)}&side=${side}`;
        const res = await fetch(`${root}/precheck${query}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: form,
          signal: controller.signal,
        });
        if (!res.ok) return { issue: null, checked: false };
        const body = (await res.json()) as { issue: string | null; checked: boolean };
        return { issue: body.issue ?? null, checked: Boolean(body.checked) };
      } catch {
        // Advice only: a failed pre-check never blocks the user.
        return { issue: null, checked: false };
      } finally {
        clearTimeout(timer);
      }
    },
    /**
     * Always the direct-upload path: targets from the API, each photo PUT straight to storage,
     * then the verify naming them. Photos never pass through the API's gateway (6 MB cap once
     * base64-encoded), so a large photo behaves like a small one, and the three go in parallel.
     */
    async upload(parts, onProgress) {
      const entries = Object.entries(parts);
      const targets = await postJson<{ uploads: UploadTarget[] }>(`${root}/uploads`, token, {
        images: entries.map(([kind, blob]) => ({ kind, content_type: imageType(blob), size: blob.size })),
      });
      const total = entries.reduce((sum, [, blob]) => sum + blob.size, 0) || 1;
      const sent = new Map<string, number>();
      await Promise.all(
        targets.uploads.map((target) =>
          put(target, parts[target.kind] as Blob, (loaded) => {
            sent.set(target.kind, loaded);
            // The photos' share of the bar; the analysis is the last step.
            onProgress((0.95 * [...sent.values()].reduce((a, b) => a + b, 0)) / total);
          }),
        ),
      );
      const names = Object.fromEntries(targets.uploads.map((t) => [t.kind, t.id]));
      const result = await postJson<CaptureResult>(`${root}/verify`, token, names, UPLOAD_TIMEOUT_MS);
      onProgress(1);
      return result;
    },
  };
}

interface UploadTarget {
  id: string;
  kind: string;
  url: string;
  headers: Record<string, string>;
}

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];

function imageType(blob: Blob): string {
  return IMAGE_TYPES.includes(blob.type) ? blob.type : 'image/jpeg';
}

/** A JSON call of the API; an answer other than 2xx becomes an ApiFailure with its code. */
function postJson<T>(url: string, token: string, body: unknown, timeoutMs = 30_000): Promise<T> {
  return send<T>(
    'POST',
    url,
    { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    JSON.stringify(body),
    timeoutMs,
  );
}

/** One photo to its presigned URL, with exactly the headers the signature covers. */
function put(target: UploadTarget, blob: Blob, onProgress: (loaded: number) => void): Promise<unknown> {
  return send('PUT', target.url, target.headers, blob, UPLOAD_TIMEOUT_MS, onProgress);
}

// XMLHttpRequest rather than fetch: only it reports upload progress in every browser.
function send<T>(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: XMLHttpRequestBodyInit,
  timeoutMs: number,
  onProgress?: (loaded: number) => void,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.timeout = timeoutMs;
    if (onProgress) xhr.upload.onprogress = (event) => onProgress(event.loaded);
    xhr.onerror = () => reject(new NetworkFailure('network error'));
    xhr.ontimeout = () => reject(new NetworkFailure('timed out'));
    xhr.onload = () => {
      let parsed: { error?: { code?: string; message?: string } } & Record<string, unknown> = {};
      try {
        parsed = xhr.responseText ? JSON.parse(xhr.responseText) : {};
      } catch {
        // Storage answers in XML, a proxy with a page: kept as a status-only failure.
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(parsed as unknown as T);
      const retryAfter = Number(xhr.getResponseHeader('retry-after')) || undefined;
      reject(
        new ApiFailure(
          xhr.status,
          parsed.error?.code ?? `http_${xhr.status}`,
          parsed.error?.message ?? `HTTP ${xhr.status}`,
          retryAfter,
        ),
      );
    };
    xhr.send(body);
  });
}

/**
 * Runs `attempt` again when the network cut it (not when the API answered): a phone that
 * loses its signal mid-upload retries by itself a few times before asking the user.
 */
export async function withNetworkRetry<T>(
  attempt: () => Promise<T>,
  onRetry: () => void,
  delaysMs: readonly number[] = [1000, 3000, 6000],
): Promise<T> {
  for (let i = 0; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      const delay = delaysMs[i];
      if (!(error instanceof NetworkFailure) || delay === undefined) throw error;
      onRetry();
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
