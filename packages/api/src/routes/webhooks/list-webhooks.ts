import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppDeps } from '../../deps.ts';
import { authOf } from '../../http/auth.ts';
import type { AppEnv } from '../../http/env.ts';
import {
  AUTHENTICATED_ERRORS,
  errorResponses,
  RATE_LIMIT_HEADERS,
  secretKeyAuth,
} from '../../openapi/common.ts';
import { endpointView, WebhookEndpointSchema } from './schemas.ts';

const route = (deps: AppDeps) =>
  createRoute({
    method: 'get',
    path: '/v1/webhooks',
    summary: 'List webhook endpoints',
    description:
      "The organisation's endpoints (at most 16), newest first, in one page. Secrets are never listed.",
    tags: ['Webhooks'],
    ...secretKeyAuth(deps),
    responses: {
      200: {
        description: 'Every endpoint of the organisation',
        headers: RATE_LIMIT_HEADERS,
        content: {
          'application/json': {
            schema: z.object({
              data: z.array(WebhookEndpointSchema),
              next_cursor: z.null().openapi({ description: 'Always null: the list fits one page' }),
            }),
          },
        },
      },
      ...errorResponses(...AUTHENTICATED_ERRORS),
    },
  });

export function registerListWebhooks(app: OpenAPIHono<AppEnv>, deps: AppDeps) {
  app.openapi(route(deps), async (c) => {
    const auth = authOf(c);
    const endpoints = await deps.store.webhookEndpoints.listForOrganisation(auth.orgId);
    return c.json({ data: endpoints.map(endpointView), next_cursor: null }, 200);
  });
}
