import type { Mode, SessionDocumentType, SessionRecord } from '@idv/store';
import { type AppDeps, nowOf } from '../deps.ts';

export interface OpenSessionInput {
  orgId: string;
  appId: string;
  mode: Mode;
  /** The key that opened it, or the console user for a QR session. */
  keyId: string;
  reference?: string | null;
  documentType?: SessionDocumentType | null;
  ttlSeconds: number;
  /** Set when a console user opens it (QR session). */
  createdBy?: string | null;
}

/** The hosted capture page of a session; with the client token after `#` when it is known. */
export function captureUrl(baseUrl: string, sessionId: string, clientToken?: string): string {
  const page = `${baseUrl}/capture/${sessionId}`;
  return clientToken ? `${page}#${clientToken}` : page;
}

/**
 * Opens a capture session: the one way both `POST /v1/sessions` and the console's QR sessions
 * create one. The client token is returned here once and never kept (only its hash is).
 */
export async function openSession(
  deps: AppDeps,
  input: OpenSessionInput,
): Promise<{ record: SessionRecord; clientToken: string; url: string }> {
  const { record, clientToken } = await deps.store.sessions.create(input, nowOf(deps));
  return { record, clientToken, url: captureUrl(deps.baseUrl, record.id, clientToken) };
}
