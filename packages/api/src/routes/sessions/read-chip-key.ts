import type { OpenAPIHono } from '@hono/zod-openapi';
import { ApiError, chipAccessKey, parseMrz } from '@idv/core';
import { bodyLimit } from 'hono/body-limit';
import type { AppDeps } from '../../deps.ts';
import { limitPerSession, requireClientToken } from '../../http/client-token-auth.ts';
import type { AppEnv } from '../../http/env.ts';
import { MAX_IMAGE_BYTES, readImageParts } from '../../http/images.ts';
import { errorResponses, RATE_LIMIT_HEADERS } from '../../openapi/common.ts';
import { ChipKeySchema, CLIENT_TOKEN_SECURITY, imageBody } from './schemas.ts';

export function registerReadChipKey(app: OpenAPIHono<AppEnv>, deps: AppDeps) {
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/v1/sessions/{id}/mrz',
    summary: 'Read the chip access key',
    description:
      'For an app about to read the document chip over NFC: the key (document number, date of birth, date of ' +
      'expiry, as printed) from a photo of the MRZ (passport data page, card back). `key` is null unless every ' +
      'check digit holds. Nothing is stored or billed. Client token; 20 calls per minute per session.',
    tags: ['Sessions'],
    security: CLIENT_TOKEN_SECURITY,
    request: { body: imageBody('The photo showing the MRZ') },
    responses: {
      200: {
        description: 'The key, or null',
        headers: RATE_LIMIT_HEADERS,
        content: { 'application/json': { schema: ChipKeySchema } },
      },
      ...errorResponses(
        'invalid_request',
        'invalid_image',
        'unauthorized',
        'session_completed',
        'session_expired',
        'image_too_large',
        'rate_limited',
      ),
    },
  });

  app.post(
    '/v1/sessions/:id/mrz',
    requireClientToken(deps),
    async (c, next) => {
      await limitPerSession(c, deps, 'mrz');
      await next();
    },
    bodyLimit({
      maxSize: MAX_IMAGE_BYTES + 64 * 1024,
      onError: () => {
        throw new ApiError('image_too_large', 'the image may be at most 12 MB');
      },
    }),
    async (c) => {
      const images = await readImageParts(c, ['image'], ['image']);
      const image = images.image;
      if (!image || !deps.analyzer?.readMrz) return c.json({ key: null }, 200);
      let lines: string[] | null = null;
      try {
        lines = (await deps.analyzer.readMrz(image.bytes))?.lines ?? null;
      } catch {
        // Spec: an unreadable MRZ is `key: null`, never an error.
      }
      const parsed = lines ? parseMrz(lines) : null;
      return c.json({ key: parsed ? chipAccessKey(parsed) : null }, 200);
    },
  );
}
