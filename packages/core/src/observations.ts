import { z } from 'zod';
import { ImageKindSchema } from './image-kinds.ts';

/**
 * What the analyzer (packages/vision) saw on the photos. It holds observations only:
 * no check status, no score, no verdict. `core` turns it into the five checks.
 *
 * This is the contract between vision and core; change it in both places together.
 */

export const DocumentTypeSchema = z.enum(['passport', 'cni', 'unknown']);
export type DocumentType = z.infer<typeof DocumentTypeSchema>;

/** Finer than the public document type: which layout was recognised. */
export const DocumentLayoutSchema = z.enum(['td3', 'td1', 'td2', 'niger_paper_card', 'unknown']);
export type DocumentLayout = z.infer<typeof DocumentLayoutSchema>;

/** A printed (visual inspection zone) field as read by OCR; null when not found. */
export const PrintedFieldsSchema = z.object({
  surname: z.string().nullable(),
  given_names: z.string().nullable(),
  /** ISO `YYYY-MM-DD` when the printed date could be parsed. */
  date_of_birth: z.string().nullable(),
  sex: z.string().nullable(),
  nationality: z.string().nullable(),
  place_of_birth: z.string().nullable(),
  document_number: z.string().nullable(),
  date_of_issue: z.string().nullable(),
  date_of_expiry: z.string().nullable(),
  issuing_authority: z.string().nullable(),
});
export type PrintedFields = z.infer<typeof PrintedFieldsSchema>;

export const PRINTED_FIELD_NAMES = Object.keys(PrintedFieldsSchema.shape) as (keyof PrintedFields)[];

export function emptyPrintedFields(): PrintedFields {
  return Object.fromEntries(PRINTED_FIELD_NAMES.map((k) => [k, null])) as PrintedFields;
}

export const MrzObservationSchema = z.object({
  /** The MRZ lines as finally read (after check-digit guided correction), without spaces. */
  lines: z.array(z.string()),
  /** Which image the MRZ was found on. */
  side: ImageKindSchema,
  /** True when OCR confusions were corrected because a check digit failed on the raw reading. */
  corrected: z.boolean(),
  /** Mean recognition confidence of the MRZ characters, 0..1. */
  confidence: z.number().min(0).max(1),
});
export type MrzObservation = z.infer<typeof MrzObservationSchema>;

export const TamperTypeSchema = z.enum([
  'photo_of_screen',
  'photocopy',
  'font_inconsistency',
  'portrait_edge',
  'field_overwritten',
  'glare',
  'blur',
  'partial_document',
]);
export type TamperType = z.infer<typeof TamperTypeSchema>;

export const SeveritySchema = z.enum(['low', 'medium', 'high']);
export type Severity = z.infer<typeof SeveritySchema>;

export const TamperSignalSchema = z.object({
  type: TamperTypeSchema,
  severity: SeveritySchema,
  side: ImageKindSchema,
  /** Detector strength, 0..1; kept for audit and tuning, not shown to customers. */
  strength: z.number().min(0).max(1),
  /** Optional field the sign concerns (font_inconsistency, field_overwritten). */
  field: z.string().optional(),
});
export type TamperSignal = z.infer<typeof TamperSignalSchema>;

export const FaceObservationSchema = z.object({
  /** Number of faces found on the document photo(s) (the portrait; ghost images excluded). */
  faces_in_document: z.number().int().min(0),
  /** Number of faces on the selfie. */
  faces_in_selfie: z.number().int().min(0),
  /** Similarity on the spec's calibrated scale (0..1), null when it could not be computed. */
  similarity: z.number().min(0).max(1).nullable(),
});
export type FaceObservation = z.infer<typeof FaceObservationSchema>;

export const ObservationsSchema = z.object({
  document: z.object({
    type: DocumentTypeSchema,
    layout: DocumentLayoutSchema,
    /** ICAO three-letter code from the MRZ or the printed wording; null when unknown. */
    country: z.string().nullable(),
    /** Mean recognition confidence of the text read, 0..1. */
    legibility: z.number().min(0).max(1),
  }),
  /** Null when no MRZ was found on any image. */
  mrz: MrzObservationSchema.nullable(),
  printed: PrintedFieldsSchema,
  /** Whether a portrait was located on the document. */
  portrait_found: z.boolean(),
  /** Null when no selfie was sent. */
  face: FaceObservationSchema.nullable(),
  tamper: z.array(TamperSignalSchema),
  /** Integer milliseconds per step, snake_case keys ending in `_ms`. */
  timings: z.record(z.string(), z.number().int().min(0)),
});
export type Observations = z.infer<typeof ObservationsSchema>;
