import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { DELIVERIES_LISTED } from '@idv/store';
import type { AppDeps } from '../../deps.ts';
import { ApiError } from '../../http/api-error.ts';
import { authOf } from '../../http/auth.ts';
import type { AppEnv } from '../../http/env.ts';
import {
  AUTHENTICATED_ERRORS,
  errorResponses,
  RATE_LIMIT_HEADERS,
  secretKeyAuth,
} from '../../openapi/common.ts';
import { WebhookDeliverySchema, WebhookEndpointIdParam } from './schemas.ts';

const route = (deps: AppDeps) =>
  createRoute({
    method: 'get',
    path: '/v1/webhooks/{id}/deliveries',
    summary: "List an endpoint's deliveries",
    description: `The endpoint's last ${DELIVERIES_LISTED} deliveries, newest first, with their state, attempts and last error.`,
    tags: ['Webhooks'],
    ...secretKeyAuth(deps),
    request: { params: WebhookEndpointIdParam },
    responses: {
      200: {
        description: 'The last deliveries',
        headers: RATE_LIMIT_HEADERS,
        content: {
          'application/json': {
            schema: z.object({
              data: z.array(WebhookDeliverySchema).max(DELIVERIES_LISTED),
              next_cursor: z
                .null()
                .openapi({ description: `Always null: only the last ${DELIVERIES_LISTED} are kept listed` }),
            }),
          },
        },
      },
      ...errorResponses('invalid_request', 'not_found', ...AUTHENTICATED_ERRORS),
    },
  });

export function registerListDeliveries(app: OpenAPIHono<AppEnv>, deps: AppDeps) {
  app.openapi(route(deps), async (c) => {
    const auth = authOf(c);
    const { id } = c.req.valid('param');
    const endpoint = await deps.store.webhookEndpoints.get(auth.orgId, id);
    if (!endpoint) throw new ApiError('not_found', `no webhook endpoint ${id}`);
    c.set('resourceId', id);
    const data = await deps.store.webhookDeliveries.listForEndpoint(id, DELIVERIES_LISTED);
    return c.json({ data, next_cursor: null }, 200);
  });
}
