import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { nowOf } from '../../deps.ts';
import { ApiError } from '../../http/api-error.ts';
import { limitPerSession, sessionOf } from '../../http/client-token-auth.ts';
import type { ApiApp, AppEnv } from '../../http/env.ts';
import { MAX_UPLOAD_BYTES, readImageParts, VERIFY_IMAGE_PARTS } from '../../http/images.ts';
import { errorResponses, RATE_LIMIT_HEADERS } from '../../openapi/common.ts';
import { uploadSource } from '../../services/uploads.ts';
import { verify } from '../../services/verify.ts';
import { isJsonBody, readVerifyUploads, VerifyUploadsRef } from '../uploads/schemas.ts';
import { VerificationResponse } from '../verifications/schemas.ts';
import { SESSIONS_BROWSER } from './group.ts';
import { SessionIdParam, SessionUploadFormSchema } from './schemas.ts';

/** Bodies past three images are refused before they are read. */
const uploadLimit = bodyLimit({
  maxSize: MAX_UPLOAD_BYTES,
  onError: () => {
    throw new ApiError('image_too_large', 'the request is too large; each image may be at most 12 MB');
  },
});

export const uploadSessionRoute = createRoute({
  operationId: 'uploadSession',
  method: 'post',
  path: '/v1/sessions/{id}/verify',
  summary: 'Upload the photos of a session (browser)',
  description:
    "The end user's browser or app uploads the photos with the session's client token; CORS is open. Parts as " +
    'for POST /v1/verify. `201` returns the verification, completes the session (the token is spent) and sends ' +
    'the webhook. A `402` or a `422` leaves the session usable. Of concurrent uploads only one is processed; the ' +
    'others get `409`. A session that imposes its document refuses another one (`400`). 12 requests per minute. ' +
    'Large photos: a JSON body names the uploads made with POST /v1/sessions/{id}/uploads instead of files.',
  ...SESSIONS_BROWSER,
  middleware: [...SESSIONS_BROWSER.middleware, limitPerSession('upload'), uploadLimit],
  request: {
    params: SessionIdParam,
    body: {
      required: true,
      content: {
        'multipart/form-data': { schema: SessionUploadFormSchema },
        'application/json': { schema: VerifyUploadsRef },
      },
    },
  },
  responses: {
    201: {
      description: 'The verification; the session is completed',
      headers: RATE_LIMIT_HEADERS,
      content: { 'application/json': { schema: VerificationResponse } },
    },
    ...errorResponses(
      'invalid_request',
      'invalid_image',
      'unauthorized',
      'not_found',
      'account_suspended',
      'session_completed',
      'conflict',
      'session_expired',
      'image_too_large',
      'unreadable',
      'rate_limited',
      'analysis_unavailable',
    ),
  },
});

export const uploadSession: RouteHandler<typeof uploadSessionRoute, AppEnv> = async (c) => {
  const { deps } = c.var;
  const session = sessionOf(c);
  const org = await deps.store.organisations.get(session.org_id);
  if (!org) throw new ApiError('unauthorized', 'the organisation of this session no longer exists');
  if (org.suspended)
    throw new ApiError('account_suspended', 'this organisation is suspended; contact support');
  const named = isJsonBody(c) ? await readVerifyUploads(c) : null;
  const images = named ? {} : await readImageParts(c, VERIFY_IMAGE_PARTS, ['front']);
  if (session.document_type === 'passport' && (images.back || named?.back)) {
    throw new ApiError('invalid_request', 'back: this session expects a passport, which has no back');
  }

  const now = nowOf(deps);
  const claim = await deps.store.sessions.claimUpload(session.id, now);
  if (claim.state !== 'claimed') throw claimRefusal(claim.state);
  const { claimId } = claim;
  try {
    const result = await verify(deps, {
      caller: {
        orgId: session.org_id,
        appId: session.app_id,
        mode: session.mode,
        actor: session.id,
        retentionDays: org.retention_days,
      },
      images,
      uploads: named
        ? uploadSource(deps, { orgId: session.org_id, mode: session.mode, sessionId: session.id }, named)
        : undefined,
      documentType: session.document_type ?? undefined,
      sessionId: session.id,
      reference: session.reference,
      startedAt: c.get('startedAt'),
      completeSession: (verificationId) =>
        deps.store.sessions.completeItem(session.id, claimId, verificationId, now),
    });
    // The log entry already names the session (as its key); the resource is what it created.
    c.set('resourceId', result.verification.id);
    return c.json(result.verification, 201);
  } catch (error) {
    // Nothing was saved (422, 503, another document…): the session stays usable.
    await deps.store.sessions.releaseUpload(session.id, claimId).catch(() => undefined);
    throw error;
  }
};

export function registerUploadSession(app: ApiApp) {
  app.openapi(uploadSessionRoute, uploadSession);
}

/** Why an upload could not take the session. */
function claimRefusal(state: 'in_progress' | 'completed' | 'expired' | 'not_found'): ApiError {
  switch (state) {
    case 'completed':
      return new ApiError(
        'session_completed',
        'this session is already completed; its client token was used',
      );
    case 'expired':
      return new ApiError('session_expired', 'this session has expired; open a new one');
    case 'not_found':
      return new ApiError('unauthorized', 'the session no longer exists');
    case 'in_progress':
      return new ApiError(
        'conflict',
        'another upload of this session is being processed; wait for its answer',
      );
  }
}
