import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { authOf } from '../../http/auth.ts';
import type { ApiApp, AppEnv } from '../../http/env.ts';
import { AUTHENTICATED_ERRORS, errorResponses, jsonResponse } from '../../openapi/common.ts';
import { WEBHOOKS } from './group.ts';
import { endpointView, singlePageOf, WebhookEndpointSchema } from './schemas.ts';

export const listWebhooksRoute = createRoute({
  operationId: 'listWebhooks',
  method: 'get',
  path: '/v1/webhooks',
  summary: 'List webhook endpoints',
  description:
    "The organisation's endpoints (at most 16), newest first, in one page. Secrets are never listed.",
  ...WEBHOOKS,
  responses: {
    200: jsonResponse(
      'Every endpoint of the organisation',
      singlePageOf(WebhookEndpointSchema, 'Always null: the list fits one page'),
    ),
    ...errorResponses(...AUTHENTICATED_ERRORS),
  },
});

export const listWebhooks: RouteHandler<typeof listWebhooksRoute, AppEnv> = async (c) => {
  const auth = authOf(c);
  const endpoints = await c.var.deps.store.webhookEndpoints.listForOrganisation(auth.orgId);
  return c.json({ data: endpoints.map(endpointView), next_cursor: null }, 200);
};

export function registerListWebhooks(app: ApiApp) {
  app.openapi(listWebhooksRoute, listWebhooks);
}
