import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppDeps } from '../../deps.ts';
import type { AppEnv } from '../../http/env.ts';
import { registerCreateWebhook } from './create-webhook.ts';
import { registerDeleteWebhook } from './delete-webhook.ts';
import { registerListDeliveries } from './list-deliveries.ts';
import { registerListWebhooks } from './list-webhooks.ts';

/** The four webhook operations: create, list, delete, list deliveries. */
export function registerWebhookRoutes(app: OpenAPIHono<AppEnv>, deps: AppDeps) {
  registerCreateWebhook(app, deps);
  registerListWebhooks(app, deps);
  registerDeleteWebhook(app, deps);
  registerListDeliveries(app, deps);
}
