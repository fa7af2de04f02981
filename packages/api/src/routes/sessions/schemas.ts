import { z } from '@hono/zod-openapi';
import type { Verification } from '@idv/core';
import { type SessionRecord, sessionStatus } from '@idv/store';
import { resourceIdParam } from '../../http/resource-id.ts';
import { captureUrl } from '../../services/sessions.ts';
import { documentImagesForm, IMAGE_LIMITS_TEXT, VerificationResponse } from '../verifications/schemas.ts';

/** Shared OpenAPI schemas and views of the session routes. */

/** DESIGN.md: `ttl_seconds` from 60 to 3600, default 900 (15 minutes). */
export const SESSION_TTL = { min: 60, max: 3600, default: 900 } as const;
export const MAX_REFERENCE_LENGTH = 256;

export const SessionIdParam = resourceIdParam('ses', 'a session', 'ses_mbq1x2c3d4e5f6g7h8i9j0k1');

export const CreateSessionBody = z
  .object({
    reference: z.string().min(1).max(MAX_REFERENCE_LENGTH).optional().openapi({
      description: 'Your file reference; shown again by GET /v1/sessions/{id}',
      example: 'customer-1842',
    }),
    document_type: z
      .enum(['cni', 'passport'])
      .optional()
      .openapi({ description: 'Imposes the document; otherwise the end user chooses' }),
    ttl_seconds: z
      .number()
      .int()
      .min(SESSION_TTL.min)
      .max(SESSION_TTL.max)
      .default(SESSION_TTL.default)
      .openapi({
        description: 'Lifetime of the client token, 60 to 3600 seconds (default 900)',
        example: 900,
      }),
  })
  .strict();

export const SessionSchema = z
  .object({
    id: z.string().openapi({ example: 'ses_mbq1x2c3d4e5f6g7h8i9j0k1' }),
    status: z.enum(['open', 'completed', 'expired']),
    mode: z.enum(['test', 'live']),
    reference: z.string().nullable(),
    document_type: z.enum(['cni', 'passport']).nullable(),
    url: z.string().openapi({
      description: 'The hosted capture page; the client token travels after `#` and never reaches a server',
      example: 'https://api.example.com/capture/ses_mbq1x2c3d4e5f6g7h8i9j0k1#vn_ct_…',
    }),
    expires_at: z.string().openapi({ example: '2026-11-23T10:15:00.000Z' }),
    created_at: z.string().openapi({ example: '2026-11-23T10:00:00.000Z' }),
    verification_id: z.string().nullable(),
    verification: VerificationResponse.nullable(),
  })
  .openapi('Session');

export const CreatedSessionSchema = SessionSchema.extend({
  client_token: z.string().openapi({
    description: 'For the browser or app: uploads to this session once. Shown only in this response.',
    example: 'vn_ct_4f9aK2mQ7xR4tV1wY8zA3bC6dE0gH5jL2nP4sU7v',
  }),
}).openapi('CreatedSession');

/** The public view of a session; `url` carries the client token only when it is known (creation). */
export function sessionView(
  record: SessionRecord,
  options: { baseUrl: string; now: Date; clientToken?: string; verification?: Verification | null },
) {
  return {
    id: record.id,
    status: sessionStatus(record, options.now),
    mode: record.mode,
    reference: record.reference,
    document_type: record.document_type,
    url: captureUrl(options.baseUrl, record.id, options.clientToken),
    expires_at: record.token_expires_at,
    created_at: record.created_at,
    verification_id: record.verification_id,
    verification: options.verification ?? null,
  };
}

export const PrecheckQuery = z.object({
  document_type: z.enum(['cni', 'cni_old', 'passport']).optional(),
  side: z.enum(['front', 'back']).optional(),
});

export const PrecheckSchema = z
  .object({
    issue: z
      .enum(['not_a_document', 'wrong_side', 'cut_off', 'obstructed', 'glare', 'illegible'])
      .nullable()
      .openapi({ description: 'The most basic problem of the photo, or null' }),
    checked: z
      .boolean()
      .openapi({ description: 'false when the photo could not be checked (the advice is then empty)' }),
    latency_ms: z.number().int(),
  })
  .openapi('Precheck');

export const ChipKeySchema = z
  .object({
    key: z
      .object({
        document_number: z.string(),
        date_of_birth: z.string().openapi({ description: 'YYMMDD as printed' }),
        date_of_expiry: z.string().openapi({ description: 'YYMMDD as printed' }),
      })
      .nullable()
      .openapi({ description: 'Null unless every MRZ check digit holds' }),
  })
  .openapi('ChipKey');

/**
 * A multipart body with one image part. Plain OpenAPI (not zod): documented, not validated
 * here; the handler reads the part with size and type checks of its own.
 */
export function imageBody(description: string) {
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          description: IMAGE_LIMITS_TEXT,
          required: ['image'],
          properties: { image: { type: 'string', format: 'binary', description } },
        } as never,
      },
    },
  };
}

/** The upload's parts, as for POST /v1/verify. */
export const SessionUploadFormSchema = documentImagesForm('Selfie for the face match');
