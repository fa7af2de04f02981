import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { authOf } from '../../http/auth.ts';
import type { ApiApp, AppEnv } from '../../http/env.ts';
import { AUTHENTICATED_ERRORS, errorResponses, jsonResponse } from '../../openapi/common.ts';
import { createUploads } from '../../services/uploads.ts';
import { UPLOADS } from './group.ts';
import { CreatedUploadsSchema, CreateUploadsBody } from './schemas.ts';

export const LARGE_UPLOAD_TEXT =
  'Images go straight to storage with presigned PUTs, so no request to the API carries them: use this path ' +
  'whenever the images together exceed about 4 MB (the API gateway caps a request at 6 MB once the body is ' +
  'base64-encoded; a larger multipart POST /v1/verify is refused with 413 `image_too_large`).';

export const createUploadsRoute = createRoute({
  operationId: 'createUploads',
  method: 'post',
  path: '/v1/uploads',
  summary: 'Get upload targets for large images',
  description:
    `${LARGE_UPLOAD_TEXT} Give each image's kind, type and exact size; each answer entry is a presigned URL ` +
    'that accepts one PUT of exactly that file (Content-Type as given) for 10 minutes. Then call ' +
    'POST /v1/verify with a JSON body naming the upload ids (`{"front": "upl_…", "back": "upl_…"}`). ' +
    'Each image: at most 12 MiB (12,582,912 bytes, larger answers 413) and at most 50 megapixels. ' +
    'An upload is single use, belongs to this key’s organisation and mode, and is deleted once a verification ' +
    'has read it, or after an hour when none did.',
  ...UPLOADS,
  request: { body: { required: true, content: { 'application/json': { schema: CreateUploadsBody } } } },
  responses: {
    201: jsonResponse('One presigned PUT target per image', CreatedUploadsSchema),
    ...errorResponses('invalid_request', 'image_too_large', ...AUTHENTICATED_ERRORS),
  },
});

export const createUploadsHandler: RouteHandler<typeof createUploadsRoute, AppEnv> = async (c) => {
  const auth = authOf(c);
  const uploads = await createUploads(
    c.var.deps,
    { orgId: auth.orgId, mode: auth.mode, sessionId: null },
    c.req.valid('json').images,
  );
  return c.json({ uploads }, 201);
};

export function registerCreateUploads(app: ApiApp) {
  app.openapi(createUploadsRoute, createUploadsHandler);
}
