import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { ApiError } from '../../http/api-error.ts';
import { authOf } from '../../http/auth.ts';
import type { ApiApp, AppEnv } from '../../http/env.ts';
import { resourceResponses } from '../../openapi/common.ts';
import { WEBHOOKS } from './group.ts';
import { DeletedWebhookEndpointSchema, WebhookEndpointIdParam } from './schemas.ts';

export const deleteWebhookRoute = createRoute({
  operationId: 'deleteWebhook',
  method: 'delete',
  path: '/v1/webhooks/{id}',
  summary: 'Delete a webhook endpoint',
  description:
    'Removes the endpoint at once: no further attempt is made to it, and its pending deliveries end `failed`.',
  ...WEBHOOKS,
  request: { params: WebhookEndpointIdParam },
  responses: resourceResponses('The endpoint was deleted', DeletedWebhookEndpointSchema),
});

export const deleteWebhook: RouteHandler<typeof deleteWebhookRoute, AppEnv> = async (c) => {
  const auth = authOf(c);
  const { id } = c.req.valid('param');
  // Another organisation's endpoint is simply not found.
  if (!(await c.var.deps.store.webhookEndpoints.delete(auth.orgId, id))) {
    throw new ApiError('not_found', `no webhook endpoint ${id}`);
  }
  c.set('resourceId', id);
  return c.json({ id, deleted: true as const }, 200);
};

export function registerDeleteWebhook(app: ApiApp) {
  app.openapi(deleteWebhookRoute, deleteWebhook);
}
