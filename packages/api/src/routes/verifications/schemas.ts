import { z } from '@hono/zod-openapi';
import { IMAGE_KINDS, VerificationSchema } from '@idv/core';
import { resourceIdParam } from '../../http/resource-id.ts';

/** Schemas of the verification routes. */

/** The public Verification (core's schema), named for the OpenAPI document, with an example. */
const EXAMPLE_FIELDS = {
  surname: 'ISSOUFOU',
  given_names: 'AMINA',
  date_of_birth: '1987-04-12',
  sex: 'F',
  nationality: 'NER',
  place_of_birth: 'NIAMEY',
  document_number: '12AB34567',
  date_of_issue: '2021-04-16',
  date_of_expiry: '2031-04-15',
  issuing_authority: null,
};

/** A whole Verification as the API answers it (also the webhook event's example data). */
export const VERIFICATION_EXAMPLE = {
  id: 'vrf_mbq1x2c3d4e5f6g7h8i9j0k1',
  verdict: 'verified',
  final_verdict: null,
  status: 'VERIFIED',
  score: 0.97,
  document_type: 'passport',
  checks: [
    {
      name: 'mrz_checksum',
      status: 'pass',
      score: 1,
      explanation: {
        fr: 'Tous les chiffres de contrôle de la MRZ sont corrects.',
        en: 'All MRZ check digits are correct.',
      },
    },
    {
      name: 'expiry',
      status: 'pass',
      score: 1,
      explanation: {
        fr: 'Document valide jusqu’au 15 avril 2031.',
        en: 'Document valid until 15 April 2031.',
      },
    },
    {
      name: 'viz_mrz_consistency',
      status: 'pass',
      score: 1,
      explanation: {
        fr: 'Les champs imprimés concordent avec la MRZ.',
        en: 'Printed fields agree with the MRZ.',
      },
    },
    {
      name: 'tamper',
      status: 'pass',
      score: 1,
      explanation: { fr: 'Aucun signe de falsification.', en: 'No sign of tampering.' },
      details: { anomalies: [] },
    },
    {
      name: 'face_match',
      status: 'pass',
      score: 0.9,
      explanation: {
        fr: 'Le selfie correspond au portrait (similarité 0,57).',
        en: 'The selfie matches the portrait (similarity 0.57).',
      },
    },
  ],
  latency_ms: 1180,
  created_at: '2026-11-21T08:00:00.000Z',
  document: {
    type: 'passport',
    country: 'NER',
    fields: EXAMPLE_FIELDS,
    mrz: {
      lines: ['P<NERISSOUFOU<<AMINA<<<<<<<<<<<<<<<<<<<<<<<<', '12AB345673NER8704120F3104150<<<<<<<<<<<<<<<8'],
      valid: true,
    },
    legibility: 0.93,
  },
  fields: EXAMPLE_FIELDS,
  face_match: { similarity: 0.57, matched: true, faces_in_document: 1, faces_in_selfie: 1 },
  timings: { normalize_ms: 40, ocr_ms: 610, mrz_ms: 30, face_ms: 180, tamper_ms: 60, total_ms: 1180 },
  mode: 'test' as const,
};

// Re-wrapped with the extended `z`: zod 4 attaches `.openapi` per instance, and core's schemas
// may be built before @hono/zod-openapi extends zod.
export const VerificationResponse = z.object(VerificationSchema.shape).openapi('Verification', {
  description: 'The result of one verification: five checks, a score and a verdict.',
  example: VERIFICATION_EXAMPLE,
});

export const VerificationIdParam = resourceIdParam('vrf', 'a verification', 'vrf_mbq1x2c3d4e5f6g7h8i9j0k1');

export const ImageKindParam = z.object({
  kind: z.enum(IMAGE_KINDS).openapi({ param: { name: 'kind', in: 'path' }, example: 'front' }),
});

export const ImageUrlSchema = z
  .object({
    url: z.string().openapi({ example: 'http://localhost:8787/v1/image-content/eyJhbGciOiJIUzI1NiJ9…' }),
    expires_at: z.string().openapi({ example: '2026-11-21T08:05:00.000Z' }),
  })
  .openapi('ImageUrl');

export const ImageTokenParam = z.object({
  token: z.string().openapi({ param: { name: 'token', in: 'path' } }),
});

/** The size rules of every uploaded image, stated where each upload is documented. */
export const IMAGE_LIMITS_TEXT =
  'Each image: JPEG, PNG or WebP, at most 12 MB, meaning 12 MiB (12,582,912 bytes), and at most 50 megapixels.';

/**
 * The multipart body of document images (POST /v1/verify, a session's upload), documented
 * only: the handler reads and checks the parts itself.
 */
export function documentImagesForm(selfieDescription: string) {
  return {
    type: 'object',
    description: IMAGE_LIMITS_TEXT,
    required: ['front'],
    properties: {
      front: {
        type: 'string',
        format: 'binary',
        description: 'Passport identity page, card front, or paper card page',
      },
      back: { type: 'string', format: 'binary', description: 'Card back (with the MRZ)' },
      selfie: { type: 'string', format: 'binary', description: selfieDescription },
    },
  } as never;
}

export const VerifyFormSchema = documentImagesForm('Optional selfie for the face match');

export const IdempotencyKeyHeader = z.object({
  'idempotency-key': z.string().optional().openapi({
    description: 'A unique key for this request (1–255 printable characters); kept 48 hours.',
  }),
});
