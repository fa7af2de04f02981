import type { Context } from 'hono';
import type { AppEnv } from './env.ts';
import { errorResponse } from './errors.ts';

/**
 * Unknown route → 404; a known path with another method → 405 with an Allow header.
 * Hono itself answers both with 404, so the registered routes are consulted here.
 */
export function notFoundHandler(routes: () => { method: string; path: string }[]) {
  return (c: Context<AppEnv>) => {
    const allowed = new Set<string>();
    for (const route of routes()) {
      if (route.method === 'ALL' || route.path.includes('*')) continue;
      if (pathPattern(route.path).test(c.req.path)) allowed.add(route.method);
    }
    if (allowed.size > 0 && !allowed.has(c.req.method)) {
      c.header('allow', [...allowed].sort().join(', '));
      return errorResponse(c, 'method_not_allowed', `${c.req.method} is not allowed on ${c.req.path}`);
    }
    return errorResponse(c, 'not_found', `no route ${c.req.method} ${c.req.path}`);
  };
}

function pathPattern(path: string): RegExp {
  const escaped = path
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}/?$`);
}
