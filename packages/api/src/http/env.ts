import type { Mode, SessionRecord } from '@idv/store';

/** Who is calling, once authenticated. */
export interface SecretKeyAuth {
  kind: 'secret_key';
  keyId: string;
  orgId: string;
  appId: string;
  mode: Mode;
}

/** A browser holding a session's client token: it may act on that one session only. */
export interface ClientTokenAuth {
  kind: 'client_token';
  /** The session id: what the request log records in place of a key id. */
  keyId: string;
  sessionId: string;
  orgId: string;
  appId: string;
  mode: Mode;
}

export type AuthContext = SecretKeyAuth | ClientTokenAuth;

/** Hono context variables set by the middleware. */
export interface AppEnv {
  Variables: {
    requestId: string;
    startedAt: number;
    auth?: AuthContext;
    /** The session a client token opened (client-token routes only). */
    session?: SessionRecord;
    /** The resource a call created or read, for the request log. */
    resourceId?: string;
    /** The error code of a failed call, for the request log. */
    errorCode?: string;
  };
}
