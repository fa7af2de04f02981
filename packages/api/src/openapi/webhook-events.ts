import { type OpenAPIHono, z } from '@hono/zod-openapi';
import { VERIFICATION_EXAMPLE, VerificationResponse } from '../routes/verifications/schemas.ts';

/**
 * The `webhooks` section of the document: what the service POSTs to a registered endpoint
 * (docs/webhooks.md). Written from the receiver's side: the request is what arrives, the
 * responses are what the receiver may answer.
 */
export const WebhookEventSchema = z
  .object({
    id: z
      .string()
      .regex(/^evt_[a-z0-9]+$/)
      .openapi({ description: 'The event id: the same on every attempt; de-duplicate on it' }),
    type: z.literal('verification.completed'),
    created_at: z.iso.datetime().openapi({ description: 'ISO 8601 UTC with milliseconds' }),
    data: VerificationResponse.extend({
      app_id: z
        .string()
        .regex(/^app_[a-z0-9]+$/)
        .openapi({ description: 'The application whose key ran the verification' }),
    }).openapi({
      description:
        'The Verification exactly as `POST /v1/verify` returns it, plus `app_id`; `mode` says test or live, ' +
        '`final_verdict` is null until a reviewer decides a `review` (that decision sends a new event).',
      example: { ...VERIFICATION_EXAMPLE, app_id: 'app_mbq1x2c3d4e5f6g7h8i9j0k1' },
    }),
  })
  .openapi('VerificationCompletedEvent');

const WebhookHeaders = z.object({
  'content-type': z.literal('application/json'),
  'service-event': z.literal('verification.completed').openapi({ description: 'The event type' }),
  'service-delivery': z
    .string()
    .regex(/^whd_[a-z0-9]+$/)
    .openapi({
      description: 'The delivery id (`whd_…`): the same on every attempt to this endpoint',
    }),
  'service-signature': z
    .string()
    .regex(/^t=\d+,v1=[0-9a-f]{64}$/)
    .openapi({
      description:
        '`t=<unix seconds>,v1=<hex>`: `v1` is the lower-case hex HMAC-SHA256 of `<t>.<raw body>` keyed ' +
        'with the endpoint secret (`whsec_…`). Check it on the raw bytes before parsing, in constant time, ' +
        'and refuse a `t` more than 5 minutes from your clock (`verifyWebhookSignature` in `@idv/client` does all three).',
      example: 't=1795766400,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
    }),
});

export function registerWebhookEvents(registry: OpenAPIHono['openAPIRegistry']): void {
  registry.registerWebhook({
    method: 'post',
    path: 'verification.completed',
    operationId: 'verificationCompletedWebhook',
    summary: 'A verification finished (or was reviewed)',
    description:
      'Sent to every endpoint of the application, test and live both, after every verdict and once more after ' +
      'a human review of a `review` verdict. Answer any 2xx within 10 seconds; anything else is a failed ' +
      'attempt, retried 8 times in all (after 1, 2, 4, … 64 minutes). The same event can arrive more than once ' +
      'and out of order: process it idempotently, keyed by its `id`.',
    tags: ['Webhooks'],
    // The service authenticates itself with the signature header, not with a credential of yours.
    security: [],
    request: {
      headers: WebhookHeaders,
      body: { required: true, content: { 'application/json': { schema: WebhookEventSchema } } },
    },
    responses: {
      200: { description: 'Any 2xx within 10 seconds acknowledges the delivery.' },
      default: {
        description:
          'Any other answer, a time-out, a refused connection or a redirect (not followed) fails the attempt; it is retried.',
      },
    },
  });
}
