import type { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import type { PrecheckIssue } from '../../analyzer.ts';
import type { AppDeps } from '../../deps.ts';
import { limitPerSession, requireClientToken } from '../../http/client-token-auth.ts';
import type { AppEnv } from '../../http/env.ts';
import { MAX_IMAGE_BYTES, readImageParts } from '../../http/images.ts';
import { errorResponses, RATE_LIMIT_HEADERS } from '../../openapi/common.ts';
import { CLIENT_TOKEN_SECURITY, imageBody, PrecheckQuery, PrecheckSchema } from './schemas.ts';

/** A pre-check slower than this is abandoned: the user is waiting to confirm the photo. */
export const PRECHECK_TIMEOUT_MS = 8_000;

export function registerPrecheckSession(app: OpenAPIHono<AppEnv>, deps: AppDeps) {
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/v1/sessions/{id}/precheck',
    summary: 'Pre-check a document photo (advice)',
    description:
      'Advice on a photo before the end user confirms it: `issue` is the most basic problem (`not_a_document`, ' +
      '`wrong_side`, `cut_off`, `obstructed`, `glare`, `illegible`) or null. Any error or time-out inside answers ' +
      '`issue: null, checked: false`. Nothing is stored or billed. Client token; 20 calls per minute per session.',
    tags: ['Sessions'],
    security: CLIENT_TOKEN_SECURITY,
    request: { query: PrecheckQuery, body: imageBody('The document photo') },
    responses: {
      200: {
        description: 'The advice',
        headers: RATE_LIMIT_HEADERS,
        content: { 'application/json': { schema: PrecheckSchema } },
      },
      ...errorResponses('unauthorized', 'session_completed', 'session_expired', 'rate_limited'),
    },
  });

  app.post(
    '/v1/sessions/:id/precheck',
    requireClientToken(deps),
    async (c, next) => {
      await limitPerSession(c, deps, 'precheck');
      await next();
    },
    // An oversized body is an inner error too: advice only, never a failure.
    bodyLimit({
      maxSize: MAX_IMAGE_BYTES + 64 * 1024,
      onError: (c) => c.json(unchecked(c.get('startedAt')), 200),
    }),
    async (c) => {
      const startedAt = c.get('startedAt');
      try {
        const query = PrecheckQuery.parse(c.req.query());
        if (!deps.analyzer?.precheck) return c.json(unchecked(startedAt), 200);
        const images = await readImageParts(c, ['image'], ['image']);
        const image = images.image;
        if (!image) return c.json(unchecked(startedAt), 200);
        const result = await withTimeout(
          deps.analyzer.precheck({ bytes: image.bytes, documentType: query.document_type, side: query.side }),
          deps.precheckTimeoutMs ?? PRECHECK_TIMEOUT_MS,
        );
        return c.json(
          { issue: result.issue as PrecheckIssue | null, checked: true, latency_ms: elapsed(startedAt) },
          200,
        );
      } catch {
        return c.json(unchecked(startedAt), 200);
      }
    },
  );
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
