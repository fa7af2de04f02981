import { z } from '@hono/zod-openapi';
import { MAX_ENDPOINT_URL_LENGTH } from '@idv/webhooks';
import { resourceIdParam } from '../../http/resource-id.ts';

/** Shared OpenAPI schemas of the webhook routes. */

export const WebhookEndpointSchema = z
  .object({
    id: z.string().openapi({ example: 'whe_mbq1x2c3d4e5f6g7h8i9j0k1' }),
    url: z.string().openapi({ example: 'https://example.com/webhooks/idv' }),
    description: z.string().openapi({ example: 'Production receiver' }),
    app_id: z.string().openapi({
      description: 'The application whose events this endpoint receives (test and live both)',
      example: 'app_mbq1x2c3d4e5f6g7h8i9j0k1',
    }),
    created_at: z.string().openapi({ example: '2026-11-21T08:00:00.000Z' }),
  })
  .openapi('WebhookEndpoint');

/** The body of POST /v1/webhooks. */
export const NewWebhookEndpointSchema = z.object({
  url: z
    .string()
    .min(1)
    .max(MAX_ENDPOINT_URL_LENGTH)
    .openapi({ example: 'https://example.com/webhooks/idv' }),
  description: z.string().max(500).default('').openapi({ example: 'Production receiver' }),
});

export const CreatedWebhookEndpointSchema = WebhookEndpointSchema.extend({
  secret: z.string().openapi({
    description: 'Signing secret (whsec_…). Shown only in this response: store it now.',
    example: 'whsec_9fK2mQ7xR4tV1wY8zA3bC6dE0gH5jL2nP4sU7vX9',
  }),
}).openapi('CreatedWebhookEndpoint');

export const WebhookDeliverySchema = z
  .object({
    id: z.string().openapi({ example: 'whd_mbq1x2c3d4e5f6g7h8i9j0k1' }),
    event_id: z.string().openapi({ example: 'evt_mbq1x2c3d4e5f6g7h8i9j0k1' }),
    endpoint_id: z.string().openapi({ example: 'whe_mbq1x2c3d4e5f6g7h8i9j0k1' }),
    status: z.enum(['pending', 'succeeded', 'failed']).openapi({
      description: '`failed` means every attempt (8) is spent, or the endpoint was deleted',
    }),
    attempts: z.number().int().min(0).max(8),
    last_status_code: z.number().int().nullable().openapi({ example: 500 }),
    last_error: z.string().nullable().openapi({ example: 'receiver answered 500' }),
    next_attempt_at: z.string().nullable().openapi({ example: '2026-11-21T08:01:00.000Z' }),
    created_at: z.string().openapi({ example: '2026-11-21T08:00:00.000Z' }),
    updated_at: z.string().openapi({ example: '2026-11-21T08:00:00.412Z' }),
  })
  .openapi('WebhookDelivery');

export const DeletedWebhookEndpointSchema = z
  .object({ id: z.string(), deleted: z.literal(true) })
  .openapi('DeletedWebhookEndpoint');

/** A list that always fits one page (of at most `max` items): `next_cursor` is always null. */
export function singlePageOf<T extends z.ZodType>(item: T, why: string, max?: number) {
  const data = max === undefined ? z.array(item) : z.array(item).max(max);
  return z.object({ data, next_cursor: z.null().openapi({ description: why }) });
}

export const WebhookEndpointIdParam = resourceIdParam(
  'whe',
  'a webhook endpoint',
  'whe_mbq1x2c3d4e5f6g7h8i9j0k1',
);

/** The public view of a stored endpoint (drops the organisation id). */
export function endpointView(endpoint: {
  id: string;
  url: string;
  description: string;
  app_id: string;
  created_at: string;
}) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    app_id: endpoint.app_id,
    created_at: endpoint.created_at,
  };
}
