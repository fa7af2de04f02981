import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { DELIVERIES_LISTED } from '@idv/store';
import { ApiError } from '../../http/api-error.ts';
import { authOf, SECRET_KEY_AUTH } from '../../http/auth.ts';
import type { ApiApp, AppEnv } from '../../http/env.ts';
import { AUTHENTICATED_ERRORS, errorResponses, jsonResponse } from '../../openapi/common.ts';
import { singlePageOf, WebhookDeliverySchema, WebhookEndpointIdParam } from './schemas.ts';

export const listDeliveriesRoute = createRoute({
  operationId: 'listWebhookDeliveries',
  method: 'get',
  path: '/v1/webhooks/{id}/deliveries',
  summary: "List an endpoint's deliveries",
  description: `The endpoint's last ${DELIVERIES_LISTED} deliveries, newest first, with their state, attempts and last error.`,
  tags: ['Webhooks'],
  ...SECRET_KEY_AUTH,
  request: { params: WebhookEndpointIdParam },
  responses: {
    200: jsonResponse(
      'The last deliveries',
      singlePageOf(
        WebhookDeliverySchema,
        `Always null: only the last ${DELIVERIES_LISTED} are kept listed`,
        DELIVERIES_LISTED,
      ),
    ),
    ...errorResponses('invalid_request', 'not_found', ...AUTHENTICATED_ERRORS),
  },
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
