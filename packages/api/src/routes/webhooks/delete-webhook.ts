import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppDeps } from '../../deps.ts';
import { ApiError } from '../../http/api-error.ts';
import { authOf } from '../../http/auth.ts';
import type { AppEnv } from '../../http/env.ts';
import { AUTHENTICATED_ERRORS, errorResponses, jsonResponse, secretKeyAuth } from '../../openapi/common.ts';
import { WebhookEndpointIdParam } from './schemas.ts';

const route = (deps: AppDeps) =>
  createRoute({
    method: 'delete',
    path: '/v1/webhooks/{id}',
    summary: 'Delete a webhook endpoint',
    description:
      'Removes the endpoint at once: no further attempt is made to it, and its pending deliveries end `failed`.',
    tags: ['Webhooks'],
    ...secretKeyAuth(deps),
    request: { params: WebhookEndpointIdParam },
    responses: {
      200: jsonResponse(
        'The endpoint was deleted',
        z.object({ id: z.string(), deleted: z.literal(true) }).openapi('DeletedWebhookEndpoint'),
      ),
      ...errorResponses('invalid_request', 'not_found', ...AUTHENTICATED_ERRORS),
    },
  });

export function registerDeleteWebhook(app: OpenAPIHono<AppEnv>, deps: AppDeps) {
  app.openapi(route(deps), async (c) => {
    const auth = authOf(c);
    const { id } = c.req.valid('param');
    // Another organisation's endpoint is simply not found.
    if (!(await deps.store.webhookEndpoints.delete(auth.orgId, id))) {
      throw new ApiError('not_found', `no webhook endpoint ${id}`);
    }
    c.set('resourceId', id);
    return c.json({ id, deleted: true as const }, 200);
  });
}
