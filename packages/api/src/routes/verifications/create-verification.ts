import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import type { AppDeps } from '../../deps.ts';
import { ApiError } from '../../http/api-error.ts';
import { authOf, requireSecretKey } from '../../http/auth.ts';
import type { AppEnv } from '../../http/env.ts';
import { MAX_UPLOAD_BYTES, readImageParts, VERIFY_IMAGE_PARTS } from '../../http/images.ts';
import {
  AUTHENTICATED_ERRORS,
  errorResponses,
  RATE_LIMIT_HEADERS,
  SECRET_KEY_SECURITY,
} from '../../openapi/common.ts';
import { VerificationResponse } from '../../openapi/verification.ts';
import { verify } from '../../services/verify.ts';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export function registerCreateVerification(app: OpenAPIHono<AppEnv>, deps: AppDeps) {
  // Multipart bodies are read by the handler (with size and type checks of its own), so the
  // operation is documented here and mounted as a plain route.
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/v1/verify',
    summary: 'Verify a document',
    description:
      'Synchronous verification. Send the identity page of a passport in `front` (no `back`); for a biometric card ' +
      'the front in `front` and the back (with the MRZ) in `back`; for the Niger paper card the open page in `front`. ' +
      'An optional `selfie` is compared with the portrait. JPEG, PNG or WebP, at most 12 MB each. ' +
      'A too-blurry image is refused with 422 `unreadable`, and nothing is stored or billed. ' +
      'With `Idempotency-Key`, a retry returns the original result with `Idempotent-Replayed: true` and is not billed twice.',
    tags: ['Verifications'],
    security: SECRET_KEY_SECURITY,
    request: {
      headers: z.object({
        'idempotency-key': z.string().optional().openapi({
          description: 'A unique key for this request (1–255 printable characters); kept 48 hours.',
        }),
      }),
      body: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['front'],
              properties: {
                front: {
                  type: 'string',
                  format: 'binary',
                  description: 'Passport identity page, card front, or paper card page',
                },
                back: { type: 'string', format: 'binary', description: 'Card back (with the MRZ)' },
                selfie: {
                  type: 'string',
                  format: 'binary',
                  description: 'Optional selfie for the face match',
                },
              },
            } as never,
          },
        },
      },
    },
    responses: {
      200: {
        description: 'The verification',
        headers: {
          ...RATE_LIMIT_HEADERS,
          'idempotent-replayed': {
            description: '`true` when this is the stored result of an earlier request',
            schema: { type: 'string' },
          },
        },
        content: { 'application/json': { schema: VerificationResponse } },
      },
      ...errorResponses(
        'invalid_request',
        'invalid_image',
        'image_too_large',
        'account_suspended',
        'idempotency_in_progress',
        'unreadable',
        'idempotency_key_reused',
        'analysis_unavailable',
        ...AUTHENTICATED_ERRORS,
      ),
    },
  });

  app.post(
    '/v1/verify',
    requireSecretKey(deps),
    bodyLimit({
      maxSize: MAX_UPLOAD_BYTES,
      onError: () => {
        throw new ApiError('image_too_large', 'the request is too large; each image may be at most 12 MB');
      },
    }),
    async (c) => {
      const startedAt = c.get('startedAt');
      const auth = authOf(c);
      const idempotencyKey = c.req.header('idempotency-key');
      if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
        throw new ApiError('invalid_request', 'Idempotency-Key: 1 to 255 printable ASCII characters');
      }
      // Read once: suspension is checked here, and the retention period goes to the service.
      const org = await deps.store.organisations.get(auth.orgId);
      if (!org) throw new ApiError('unauthorized', 'the organisation of this key no longer exists');
      if (org.suspended)
        throw new ApiError('account_suspended', 'this organisation is suspended; contact support');
      const images = await readImageParts(c, VERIFY_IMAGE_PARTS, ['front']);
      const result = await verify(deps, {
        caller: {
          orgId: auth.orgId,
          appId: auth.appId,
          mode: auth.mode,
          actor: auth.keyId,
          retentionDays: org.retention_days,
        },
        images,
        idempotencyKey,
        startedAt,
      });
      c.set('resourceId', result.verification.id);
      if (result.replayed) c.header('idempotent-replayed', 'true');
      return c.json(result.verification, 200);
    },
  );
}
