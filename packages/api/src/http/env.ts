import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Mode, SessionRecord } from '@idv/store';
import type { AppDeps } from '../deps.ts';

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

/** One member per credential kind; console cookies join here. */
export type AuthContext = SecretKeyAuth | ClientTokenAuth;

/** Hono context variables set by the middleware. */
export interface AppEnv {
  Variables: {
    /** The app's services, set once for every request by createApp. */
    deps: AppDeps;
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

/** The app every route registers itself on. */
export type ApiApp = OpenAPIHono<AppEnv>;
