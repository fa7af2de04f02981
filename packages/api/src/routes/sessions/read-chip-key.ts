import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { chipAccessKey, MAX_IMAGE_BYTES, parseMrz } from '@idv/core';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from '../../http/api-error.ts';
import { limitPerSession } from '../../http/client-token-auth.ts';
import type { ApiApp, AppEnv } from '../../http/env.ts';
import { readImageParts } from '../../http/images.ts';
import { errorResponses, jsonResponse } from '../../openapi/common.ts';
import { SESSIONS_BROWSER } from './group.ts';
import { ChipKeySchema, imageBody, SessionIdParam } from './schemas.ts';

export const readChipKeyRoute = createRoute({
  operationId: 'readSessionChipKey',
  method: 'post',
  path: '/v1/sessions/{id}/mrz',
  summary: 'Read the chip access key',
  description:
    'For an app about to read the document chip over NFC: the key (document number, date of birth, date of ' +
    'expiry, as printed) from a photo of the MRZ (passport data page, card back). `key` is null unless every ' +
    'check digit holds. Nothing is stored or billed. Client token; 20 calls per minute per session.',
  ...SESSIONS_BROWSER,
  middleware: [
    ...SESSIONS_BROWSER.middleware,
    limitPerSession('mrz'),
    bodyLimit({
      maxSize: MAX_IMAGE_BYTES + 64 * 1024,
      onError: () => {
        throw new ApiError('image_too_large', 'the image may be at most 12 MB');
      },
    }),
  ],
  request: { params: SessionIdParam, body: imageBody('The photo showing the MRZ') },
  responses: {
    200: jsonResponse('The key, or null', ChipKeySchema),
    ...errorResponses(
      'invalid_request',
      'invalid_image',
      'unauthorized',
      'not_found',
      'session_completed',
      'session_expired',
      'image_too_large',
      'rate_limited',
      'service_unavailable',
    ),
  },
});

export const readChipKey: RouteHandler<typeof readChipKeyRoute, AppEnv> = async (c) => {
  const { deps } = c.var;
  const { image } = await readImageParts(c, ['image'], ['image']);
  if (!image || !deps.analyzer?.readMrz) return c.json({ key: null }, 200);
  let lines: string[] | null = null;
  try {
    lines = (await deps.analyzer.readMrz(image.bytes))?.lines ?? null;
  } catch {
    // Spec: an unreadable MRZ is `key: null`, never an error.
  }
  // Core derives the key, only when every check digit holds.
  const parsed = lines ? parseMrz(lines) : null;
  return c.json({ key: parsed ? chipAccessKey(parsed) : null }, 200);
};

export function registerReadChipKey(app: ApiApp) {
  app.openapi(readChipKeyRoute, readChipKey);
}
