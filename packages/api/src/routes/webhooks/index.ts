import type { ApiApp } from '../../http/env.ts';
import { registerCreateWebhook } from './create-webhook.ts';
import { registerDeleteWebhook } from './delete-webhook.ts';
import { registerListDeliveries } from './list-deliveries.ts';
import { registerListWebhooks } from './list-webhooks.ts';

/** The four webhook operations: create, list, delete, list deliveries. */
export function registerWebhookRoutes(app: ApiApp) {
  registerCreateWebhook(app);
  registerListWebhooks(app);
  registerDeleteWebhook(app);
  registerListDeliveries(app);
}
