import type { NewSessionInput, SessionRecord } from '@idv/store';
import { type AppDeps, nowOf } from '../deps.ts';

/** The store's session input: one definition of what opening a session takes. */
export type OpenSessionInput = NewSessionInput;

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
