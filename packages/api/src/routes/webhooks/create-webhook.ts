import { createRoute, type RouteHandler } from '@hono/zod-openapi';
import { MAX_WEBHOOK_ENDPOINTS_PER_ORGANISATION } from '@idv/store';
import { authOf } from '../../http/auth.ts';
import type { ApiApp, AppEnv } from '../../http/env.ts';
import { AUTHENTICATED_ERRORS, errorResponses, jsonResponse } from '../../openapi/common.ts';
import { createWebhookEndpoint } from '../../services/webhook-endpoints.ts';
import { WEBHOOKS } from './group.ts';
import { CreatedWebhookEndpointSchema, endpointView, NewWebhookEndpointSchema } from './schemas.ts';

export const createWebhookRoute = createRoute({
  operationId: 'createWebhook',
  method: 'post',
  path: '/v1/webhooks',
  summary: 'Create a webhook endpoint',
  description:
    "The endpoint receives `verification.completed` events of the key's application, test and live both. " +
    'HTTPS only; hosts that resolve to private, loopback, link-local or metadata addresses are refused. ' +
    `At most ${MAX_WEBHOOK_ENDPOINTS_PER_ORGANISATION} per organisation. The signing \`secret\` is returned only here.`,
  ...WEBHOOKS,
  request: {
    body: {
      required: true,
      content: {
        'application/json': { schema: NewWebhookEndpointSchema },
      },
    },
  },
  responses: {
    201: jsonResponse('The endpoint, with its signing secret', CreatedWebhookEndpointSchema),
    ...errorResponses('invalid_request', 'conflict', ...AUTHENTICATED_ERRORS),
  },
});

export const createWebhook: RouteHandler<typeof createWebhookRoute, AppEnv> = async (c) => {
  const { deps } = c.var;
  const auth = authOf(c);
  const body = c.req.valid('json');
  const endpoint = await createWebhookEndpoint(deps, {
    orgId: auth.orgId,
    appId: auth.appId,
    url: body.url,
    description: body.description,
  });
  c.set('resourceId', endpoint.id);
  return c.json({ ...endpointView(endpoint), secret: endpoint.secret }, 201);
};

export function registerCreateWebhook(app: ApiApp) {
  app.openapi(createWebhookRoute, createWebhook);
}
