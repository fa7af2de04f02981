import type { Mode } from '@idv/store';

/** Who is calling, once authenticated. */
export interface SecretKeyAuth {
  kind: 'secret_key';
  keyId: string;
  orgId: string;
  appId: string;
  mode: Mode;
}

export type AuthContext = SecretKeyAuth;

/** Hono context variables set by the middleware. */
export interface AppEnv {
  Variables: {
    requestId: string;
    startedAt: number;
    auth?: AuthContext;
    /** The resource a call created or read, for the request log. */
    resourceId?: string;
    /** The error code of a failed call, for the request log. */
    errorCode?: string;
  };
}
