import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { MAX_IMAGE_BYTES } from '@idv/core';
import { bodyLimit } from 'hono/body-limit';
import { limitPerSession } from '../../http/client-token-auth.ts';
import type { ApiApp, AppEnv } from '../../http/env.ts';
import { readImageParts } from '../../http/images.ts';
import { errorResponses, jsonResponse } from '../../openapi/common.ts';
import { SESSIONS_BROWSER } from './group.ts';
import { imageBody, PrecheckQuery, PrecheckSchema, SessionIdParam } from './schemas.ts';

/** A pre-check slower than this is abandoned: the user is waiting to confirm the photo. */
export const PRECHECK_TIMEOUT_MS = 8_000;

export const precheckSessionRoute = createRoute({
  operationId: 'precheckSessionPhoto',
  method: 'post',
  path: '/v1/sessions/{id}/precheck',
  summary: 'Pre-check a document photo (advice)',
  description:
    'Advice on a photo before the end user confirms it: `issue` is the most basic problem (`not_a_document`, ' +
    '`wrong_side`, `cut_off`, `obstructed`, `glare`, `illegible`) or null. Any error or time-out inside answers ' +
    '`issue: null, checked: false`. Nothing is stored or billed. Client token; 20 calls per minute per session.',
  ...SESSIONS_BROWSER,
  middleware: [
    ...SESSIONS_BROWSER.middleware,
    limitPerSession('precheck'),
    // An oversized body is an inner error too: advice only, never a failure.
    bodyLimit({
      maxSize: MAX_IMAGE_BYTES + 64 * 1024,
      onError: (c) => c.json(unchecked(c.get('startedAt')), 200),
    }),
  ],
  request: { params: SessionIdParam, query: PrecheckQuery, body: imageBody('The document photo') },
  responses: {
    200: jsonResponse('The advice', PrecheckSchema),
    ...errorResponses(
      'unauthorized',
      'not_found',
      'session_completed',
      'session_expired',
      'rate_limited',
      'service_unavailable',
    ),
  },
});

export const precheckSession: RouteHandler<typeof precheckSessionRoute, AppEnv> = async (c) => {
  const { deps } = c.var;
  const startedAt = c.get('startedAt');
  const analyzer = deps.analyzer;
  try {
    if (!analyzer?.precheck) return c.json(unchecked(startedAt), 200);
    const query = c.req.valid('query');
    const { image } = await readImageParts(c, ['image'], ['image']);
    if (!image) return c.json(unchecked(startedAt), 200);
    const result = await withTimeout(
      analyzer.precheck({ bytes: image.bytes, documentType: query.document_type, side: query.side }),
      deps.precheckTimeoutMs ?? PRECHECK_TIMEOUT_MS,
    );
    return c.json({ issue: result.issue, checked: true, latency_ms: elapsed(startedAt) }, 200);
  } catch {
    return c.json(unchecked(startedAt), 200);
  }
};

export function registerPrecheckSession(app: ApiApp) {
  // A bad query is an inner error of an advice call too: no advice, never a 400.
  app.openapi(precheckSessionRoute, precheckSession, (result, c) => {
    if (!result.success) return c.json(unchecked(c.get('startedAt')), 200);
  });
}

function unchecked(startedAt: number) {
  return { issue: null, checked: false, latency_ms: elapsed(startedAt) };
}

function elapsed(startedAt: number): number {
  return Math.max(0, Math.round(performance.now() - startedAt));
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('pre-check timed out')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
