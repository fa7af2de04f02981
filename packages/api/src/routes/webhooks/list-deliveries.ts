import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { DELIVERIES_LISTED } from '@idv/store';
import { ApiError } from '../../http/api-error.ts';
import { authOf } from '../../http/auth.ts';
import type { ApiApp, AppEnv } from '../../http/env.ts';
import { resourceResponses } from '../../openapi/common.ts';
import { WEBHOOKS } from './group.ts';
import { singlePageOf, WebhookDeliverySchema, WebhookEndpointIdParam } from './schemas.ts';

export const listDeliveriesRoute = createRoute({
  operationId: 'listWebhookDeliveries',
  method: 'get',
  path: '/v1/webhooks/{id}/deliveries',
  summary: "List an endpoint's deliveries",
  description: `The endpoint's last ${DELIVERIES_LISTED} deliveries, newest first, with their state, attempts and last error.`,
  ...WEBHOOKS,
  request: { params: WebhookEndpointIdParam },
  responses: resourceResponses(
    'The last deliveries',
    singlePageOf(
      WebhookDeliverySchema,
      `Always null: only the last ${DELIVERIES_LISTED} are kept listed`,
      DELIVERIES_LISTED,
    ),
  ),
});

export const listDeliveries: RouteHandler<typeof listDeliveriesRoute, AppEnv> = async (c) => {
  const { store } = c.var.deps;
  const auth = authOf(c);
  const { id } = c.req.valid('param');
  const endpoint = await store.webhookEndpoints.get(auth.orgId, id);
  if (!endpoint) throw new ApiError('not_found', `no webhook endpoint ${id}`);
  c.set('resourceId', id);
  const data = await store.webhookDeliveries.listForEndpoint(id, DELIVERIES_LISTED);
  return c.json({ data, next_cursor: null }, 200);
};

export function registerListDeliveries(app: ApiApp) {
  app.openapi(listDeliveriesRoute, listDeliveries);
}
