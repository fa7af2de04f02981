import {
  MAX_WEBHOOK_ENDPOINTS_PER_ORGANISATION,
  WebhookEndpointLimitError,
  type WebhookSigningTarget,
} from '@idv/store';
import { allowLocalhostFromEnv, checkEndpointUrl } from '@idv/webhooks';
import { type AppDeps, nowOf } from '../deps.ts';
import { ApiError } from '../http/api-error.ts';

/**
 * Registers a webhook endpoint after the address checks (HTTPS, no private or metadata
 * address, localhost only where allowed); at most 16 per organisation (409 `conflict`).
 * Returns the endpoint with its secret, which nothing else ever returns. Shared by
 * POST /v1/webhooks and the console.
 */
export async function createWebhookEndpoint(
  deps: AppDeps,
  input: { orgId: string; appId: string; url: string; description: string },
): Promise<WebhookSigningTarget> {
  const check = await checkEndpointUrl(input.url, {
    allowLocalhost: deps.webhooks?.allowLocalhost ?? allowLocalhostFromEnv(),
    resolve: deps.webhooks?.resolve,
  });
  if (!check.ok) throw new ApiError('invalid_request', `url: ${check.reason}`);
  try {
    return await deps.store.webhookEndpoints.create({ ...input, url: check.url }, nowOf(deps));
  } catch (error) {
    if (error instanceof WebhookEndpointLimitError) {
      throw new ApiError(
        'conflict',
        `at most ${MAX_WEBHOOK_ENDPOINTS_PER_ORGANISATION} webhook endpoints per organisation; delete one first`,
      );
    }
    throw error;
  }
}
