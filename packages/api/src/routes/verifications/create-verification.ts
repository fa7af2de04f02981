import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from '../../http/api-error.ts';
import { authOf } from '../../http/auth.ts';
import type { ApiApp, AppEnv } from '../../http/env.ts';
import { MAX_UPLOAD_BYTES, readImageParts, VERIFY_IMAGE_PARTS } from '../../http/images.ts';
import { AUTHENTICATED_ERRORS, errorResponses, RATE_LIMIT_HEADERS } from '../../openapi/common.ts';
import { uploadSource } from '../../services/uploads.ts';
import { verify } from '../../services/verify.ts';
import { LARGE_UPLOAD_TEXT } from '../uploads/create-uploads.ts';
import { isJsonBody, readVerifyUploads, VerifyUploadsRef } from '../uploads/schemas.ts';
import { VERIFICATIONS } from './group.ts';
import { IdempotencyKeyHeader, VerificationResponse, VerifyFormSchema } from './schemas.ts';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** Bodies past three images are refused before they are read. */
const uploadLimit = bodyLimit({
  maxSize: MAX_UPLOAD_BYTES,
  onError: () => {
    throw new ApiError('image_too_large', 'the request is too large; each image may be at most 12 MB');
  },
});

// The multipart schema is plain OpenAPI (not zod), so it is documented but not validated here:
// the handler reads the parts with size and type checks of its own.
export const createVerificationRoute = createRoute({
  operationId: 'createVerification',
  method: 'post',
  path: '/v1/verify',
  summary: 'Verify a document',
  description:
    'Synchronous verification. Send the identity page of a passport in `front` (no `back`); for a biometric card ' +
    'the front in `front` and the back (with the MRZ) in `back`; for the Niger paper card the open page in `front`. ' +
    'An optional `selfie` is compared with the portrait. JPEG, PNG or WebP, at most 12 MB each. ' +
    'A too-blurry image is refused with 422 `unreadable`, and nothing is stored or billed. ' +
    'With `Idempotency-Key`, a retry returns the original result with `Idempotent-Replayed: true` and is not billed twice. ' +
    `Large images: send a JSON body naming direct uploads (POST /v1/uploads) instead of files. ${LARGE_UPLOAD_TEXT}`,
  ...VERIFICATIONS,
  middleware: [...VERIFICATIONS.middleware, uploadLimit],
  request: {
    headers: IdempotencyKeyHeader,
    body: {
      required: true,
      content: {
        'multipart/form-data': { schema: VerifyFormSchema },
        'application/json': { schema: VerifyUploadsRef },
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
      'conflict',
      'unreadable',
      'idempotency_key_reused',
      'analysis_unavailable',
      ...AUTHENTICATED_ERRORS,
    ),
  },
});

export const createVerification: RouteHandler<typeof createVerificationRoute, AppEnv> = async (c) => {
  const { deps } = c.var;
  const auth = authOf(c);
  const idempotencyKey = c.req.valid('header')['idempotency-key'];
  if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
    throw new ApiError('invalid_request', 'Idempotency-Key: 1 to 255 printable ASCII characters');
  }
  // Read once: suspension is checked here, and the retention period goes to the service.
  const org = await deps.store.organisations.get(auth.orgId);
  if (!org) throw new ApiError('unauthorized', 'the organisation of this key no longer exists');
  if (org.suspended)
    throw new ApiError('account_suspended', 'this organisation is suspended; contact support');
  const named = isJsonBody(c) ? await readVerifyUploads(c) : null;
  const images = named ? {} : await readImageParts(c, VERIFY_IMAGE_PARTS, ['front']);
  const result = await verify(deps, {
    uploads: named
      ? uploadSource(deps, { orgId: auth.orgId, mode: auth.mode, sessionId: null }, named)
      : undefined,
    caller: {
      orgId: auth.orgId,
      appId: auth.appId,
      mode: auth.mode,
      actor: auth.keyId,
      retentionDays: org.retention_days,
    },
    images,
    idempotencyKey,
    startedAt: c.get('startedAt'),
  });
  c.set('resourceId', result.verification.id);
  if (result.replayed) c.header('idempotent-replayed', 'true');
  return c.json(result.verification, 200);
};

export function registerCreateVerification(app: ApiApp) {
  app.openapi(createVerificationRoute, createVerification);
}
