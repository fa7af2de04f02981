import { z } from 'zod';
import { DocumentTypeSchema, SeveritySchema, TamperTypeSchema } from './observations.ts';

/**
 * The public Verification (spec "Resources and their fields" + DESIGN.md decisions), as zod
 * schemas shared by api, webhooks, console and the SDK.
 */

export const CheckNameSchema = z.enum([
  'mrz_checksum',
  'expiry',
  'viz_mrz_consistency',
  'tamper',
  'face_match',
]);
export const CheckStatusSchema = z.enum(['pass', 'warn', 'fail', 'skipped']);
export type CheckStatus = z.infer<typeof CheckStatusSchema>;

/** Bilingual text meant to be shown as is (DESIGN.md: the field is `explanation`). */
export const ExplanationSchema = z.object({ fr: z.string().min(1), en: z.string().min(1) });
export type Explanation = z.infer<typeof ExplanationSchema>;

export const AnomalySchema = z.object({
  type: TamperTypeSchema,
  severity: SeveritySchema,
  explanation: ExplanationSchema,
});
export type Anomaly = z.infer<typeof AnomalySchema>;

/**
 * Schemas here carry no `.refine()`: zod 4 refuses to `.extend()` or `.omit()` a refined object,
 * and other packages build on these (the webhook event data extends the Verification).
 * Cross-field rules (score null exactly when skipped; `status` repeats `verdict`) are
 * guaranteed by `judge` and asserted in its tests.
 */
export const CheckSchema = z.object({
  name: CheckNameSchema,
  status: CheckStatusSchema,
  /** 0..1, null exactly when skipped. */
  score: z.number().min(0).max(1).nullable(),
  explanation: ExplanationSchema,
  /** The tamper check lists what was seen (DESIGN.md). */
  details: z.object({ anomalies: z.array(AnomalySchema) }).optional(),
});
export type Check = z.infer<typeof CheckSchema>;

const isoDate = z.iso.date();

/** `document.fields` and the top-level `fields`: the 10 keys, null when absent. */
export const DocumentFieldsSchema = z.object({
  surname: z.string().nullable(),
  given_names: z.string().nullable(),
  date_of_birth: isoDate.nullable(),
  sex: z.string().nullable(),
  nationality: z.string().nullable(),
  place_of_birth: z.string().nullable(),
  document_number: z.string().nullable(),
  date_of_issue: isoDate.nullable(),
  date_of_expiry: isoDate.nullable(),
  issuing_authority: z.string().nullable(),
});
export type DocumentFields = z.infer<typeof DocumentFieldsSchema>;

export const VerdictSchema = z.enum(['verified', 'review', 'rejected']);
export type Verdict = z.infer<typeof VerdictSchema>;
export const VerdictStatusSchema = z.enum(['VERIFIED', 'REVIEW', 'REJECTED']);
export type VerdictStatus = z.infer<typeof VerdictStatusSchema>;
export const FinalVerdictSchema = z.enum(['verified', 'rejected']);
export const ModeSchema = z.enum(['test', 'live']);
export type Mode = z.infer<typeof ModeSchema>;

export const VerificationDocumentSchema = z.object({
  type: DocumentTypeSchema,
  /** ICAO three-letter code (`NER`, `D<<`); null when the country was not recognised. */
  country: z.string().nullable(),
  fields: DocumentFieldsSchema,
  mrz: z.object({ lines: z.array(z.string()), valid: z.boolean() }).nullable(),
  /** Reading quality 0..1: mean recognition confidence of the text read (DESIGN.md). */
  legibility: z.number().min(0).max(1),
});
export type VerificationDocument = z.infer<typeof VerificationDocumentSchema>;

/** Null when no selfie was sent (DESIGN.md). */
export const FaceMatchSchema = z.object({
  similarity: z.number().min(0).max(1),
  matched: z.boolean(),
  faces_in_document: z.number().int().min(0),
  faces_in_selfie: z.number().int().min(0),
});
export type FaceMatch = z.infer<typeof FaceMatchSchema>;

/** Integer milliseconds per step, snake_case keys ending in `_ms` (DESIGN.md). */
export const TimingsSchema = z.record(z.string().regex(/^[a-z0-9_]+_ms$/), z.number().int().min(0));

const VERDICT_STATUS: Record<Verdict, VerdictStatus> = {
  verified: 'VERIFIED',
  review: 'REVIEW',
  rejected: 'REJECTED',
};

/** `status` is the upper-case repeat of `verdict` (spec). */
export function statusOf(verdict: Verdict): VerdictStatus {
  return VERDICT_STATUS[verdict];
}

export const VerificationSchema = z.object({
  id: z.string().regex(/^vrf_[a-z0-9]{6,}$/),
  verdict: VerdictSchema,
  /** Set once a reviewer decided a `review`; null before; never changes `verdict`. */
  final_verdict: FinalVerdictSchema.nullable(),
  status: VerdictStatusSchema,
  score: z.number().min(0).max(1),
  document_type: DocumentTypeSchema,
  checks: z.array(CheckSchema).length(5),
  latency_ms: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  /** ISO 8601 in UTC, ending with `Z`. */
  created_at: z.iso.datetime(),
  document: VerificationDocumentSchema,
  /** Repeats `document.fields` (DESIGN.md). */
  fields: DocumentFieldsSchema,
  face_match: FaceMatchSchema.nullable(),
  timings: TimingsSchema,
  mode: ModeSchema,
});
export type Verification = z.infer<typeof VerificationSchema>;
