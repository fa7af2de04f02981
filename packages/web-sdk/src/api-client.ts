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
    upload(parts, onProgress) {
      const form = new FormData();
      for (const [name, blob] of Object.entries(parts)) form.append(name, blob, `${name}.jpg`);
      // XMLHttpRequest rather than fetch: only it reports upload progress in every browser.
      return new Promise((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open('POST', `${root}/verify`);
        xhr.setRequestHeader('authorization', `Bearer ${token}`);
        xhr.timeout = UPLOAD_TIMEOUT_MS;
        xhr.upload.onprogress = (event) => {
          if (event.lengthComputable) onProgress(event.loaded / event.total);
        };
        xhr.onerror = () => reject(new NetworkFailure('network error'));
        xhr.ontimeout = () => reject(new NetworkFailure('timed out'));
        xhr.onload = () => {
          let body: { error?: { code?: string; message?: string } } & Record<string, unknown> = {};
          try {
            body = JSON.parse(xhr.responseText);
          } catch {
            // An answer without the envelope (a proxy's page): kept as a status-only failure.
          }
          if (xhr.status === 201 || xhr.status === 200) return resolve(body as unknown as CaptureResult);
          const retryAfter = Number(xhr.getResponseHeader('retry-after')) || undefined;
          reject(
            new ApiFailure(
              xhr.status,
              body.error?.code ?? `http_${xhr.status}`,
              body.error?.message ?? `HTTP ${xhr.status}`,
              retryAfter,
            ),
          );
        };
        xhr.send(form);
      });
    },
  };
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
