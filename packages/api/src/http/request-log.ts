import { newId } from '@idv/core';
import type { MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { nowOf } from '../deps.ts';
import type { AppEnv } from './env.ts';

/**
 * Records every authenticated /v1 call's metadata (never a body) once the response is ready.
 * A failure to write the log is reported but never fails the customer's call.
 */
export const requestLog: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  const auth = c.get('auth');
  if (!auth) return; // unauthenticated calls belong to no organisation
  const deps = c.get('deps');
  const entry = {
    id: c.get('requestId'),
    method: c.req.method,
    route: matchedRoute(c),
    status: c.res.status,
    error_code: c.get('errorCode') ?? null,
    key: auth.keyId,
    mode: auth.mode,
    duration_ms: Math.max(0, Math.round(performance.now() - c.get('startedAt'))),
    resource_id: c.get('resourceId') ?? null,
    created_at: nowOf(deps).toISOString(),
  };
  deps.onRequestLogged?.({
    orgId: auth.orgId,
    mode: auth.mode,
    route: entry.route,
    status: entry.status,
    resourceId: entry.resource_id,
  });
  try {
    await deps.store.requestLogs.record(auth.orgId, entry);
  } catch (error) {
    console.error(
      JSON.stringify({
        level: 'error',
        msg: 'request log write failed',
        request_id: entry.id,
        error: String(error),
      }),
    );
  }
};

/** The route pattern (e.g. /v1/verifications/:id), so logs never hold ids from paths. */
function matchedRoute(c: Parameters<typeof routePath>[0]): string {
  const path = routePath(c, -1);
  return path && path !== '/*' ? path : c.req.path;
}

export function newRequestId(): string {
  return newId('req');
}
