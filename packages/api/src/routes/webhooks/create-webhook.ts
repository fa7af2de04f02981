import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { MAX_WEBHOOK_ENDPOINTS_PER_ORGANISATION, WebhookEndpointLimitError } from '@idv/store';
import { allowLocalhostFromEnv, checkEndpointUrl, MAX_ENDPOINT_URL_LENGTH } from '@idv/webhooks';
import type { AppDeps } from '../../deps.ts';
import { ApiError } from '../../http/api-error.ts';
import { authOf } from '../../http/auth.ts';
import type { AppEnv } from '../../http/env.ts';
import { AUTHENTICATED_ERRORS, errorResponses, jsonResponse, secretKeyAuth } from '../../openapi/common.ts';
import { CreatedWebhookEndpointSchema, endpointView } from './schemas.ts';

const route = (deps: AppDeps) =>
  createRoute({
    method: 'post',
    path: '/v1/webhooks',
    summary: 'Create a webhook endpoint',
    description:
      "The endpoint receives `verification.completed` events of the key's application, test and live both. " +
      'HTTPS only; hosts that resolve to private, loopback, link-local or metadata addresses are refused. ' +
      `At most ${MAX_WEBHOOK_ENDPOINTS_PER_ORGANISATION} per organisation. The signing \`secret\` is returned only here.`,
    tags: ['Webhooks'],
    ...secretKeyAuth(deps),
    request: {
      body: {
        required: true,
        content: {
          'application/json': {
            schema: z.object({
              url: z
                .string()
                .min(1)
                .max(MAX_ENDPOINT_URL_LENGTH)
                .openapi({ example: 'https://example.com/webhooks/idv' }),
              description: z.string().max(500).default('').openapi({ example: 'Production receiver' }),
            }),
          },
        },
      },
    },
    responses: {
      201: jsonResponse('The endpoint, with its signing secret', CreatedWebhookEndpointSchema),
      ...errorResponses('invalid_request', 'conflict', ...AUTHENTICATED_ERRORS),
    },
  });

export function registerCreateWebhook(app: OpenAPIHono<AppEnv>, deps: AppDeps) {
  app.openapi(route(deps), async (c) => {
    const auth = authOf(c);
    const body = c.req.valid('json');
    const check = await checkEndpointUrl(body.url, {
      allowLocalhost: deps.webhooks?.allowLocalhost ?? allowLocalhostFromEnv(),
      resolve: deps.webhooks?.resolve,
    });
    if (!check.ok) throw new ApiError('invalid_request', `url: ${check.reason}`);
    try {
      const endpoint = await deps.store.webhookEndpoints.create(
        { orgId: auth.orgId, appId: auth.appId, url: check.url, description: body.description },
        deps.now?.(),
      );
      c.set('resourceId', endpoint.id);
      return c.json({ ...endpointView(endpoint), secret: endpoint.secret }, 201);
    } catch (error) {
      if (error instanceof WebhookEndpointLimitError) {
        throw new ApiError(
          'conflict',
          `at most ${MAX_WEBHOOK_ENDPOINTS_PER_ORGANISATION} webhook endpoints per organisation; delete one first`,
        );
      }
      throw error;
    }
  });
}
