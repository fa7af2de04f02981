/**
 * The text the reading step located on a photo, as boxes: what the document extent, the
 * analyzer's regions and the tamper checks consume. Kept apart from read-document.ts, which
 * produces them, so that the document helpers do not import the reading pipeline.
 */

export interface TextBoxObservation {
  side: 'front' | 'back';
  text: string;
  confidence: number;
  /** Corners in the normalised image's pixels, reading order from top-left. */
  quad: [number, number][];
}

/**
 * Where a read field value lies on the photo: the MRZ lines (`mrz_1`...) and the printed values
 * (`surname`, `document_number`, `date_of_birth`...) without their labels. For the tamper
 * checks, which must look at a value, not at a whole line with its bilingual label.
 */
export interface FieldBoxObservation {
  field: string;
  side: 'front' | 'back';
  /** Recogniser confidence of the whole OCR line the value was read from. */
  confidence: number;
  /** Corners in the normalised image's pixels, reading order from top-left. */
  quad: [number, number][];
  /**
   * A value read under its field's label that does not parse as the field's (viz/fields.ts
   * PrintedRead `unparsed`): the field is unread, and only the glyph cue (the box) and the
   * misfit cue (`value`) look at it.
   */
  unparsed?: true;
  /** An unparsed value's text as read (folded: capitals, no accents), for the tamper step. */
  value?: string;
}
