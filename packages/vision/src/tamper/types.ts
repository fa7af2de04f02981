import type { DocumentLayout, ImageKind, TamperSignal } from '@idv/core';
import type { FaceBox } from '../faces/detect.ts';
import type { NormalizedImage } from '../image/normalize.ts';

export type { TamperSignal };

/** A text region read on the document, as the reading step may pass it (all optional). */
export interface TamperTextBox {
  /** Field name (`surname`, `document_number`, `mrz_1`...). */
  field: string;
  side: 'front' | 'back';
  /** Axis-aligned bounds (computed from `quad` when only the quad is given). */
  x: number;
  y: number;
  w: number;
  h: number;
  /**
   * Corners of the text along its own direction (top-left, top-right, bottom-right,
   * bottom-left), as the OCR found them on a tilted or rotated photo. Glyphs are measured on
   * the text straightened along this quad when it is given.
   */
  quad?: [number, number][];
  /** Recogniser confidence of the text (0..1), when known. */
  confidence?: number;
  /**
   * The value did not parse as the field's (the reading step left the field unread): the glyph
   * cue judges it at most as a review, and the misfit cue (misfit-value.ts) its text (index.ts).
   */
  unparsed?: true;
  /** An unparsed value's text as read (folded: capitals, no accents). */
  value?: string;
}

export interface TamperContext {
  layout: DocumentLayout;
  /** Text boxes of the read fields; detectors that need them are skipped without. */
  textBoxes?: unknown;
  /**
   * Every line the OCR read (`{ side, text, quad }`), labels included: the in-painting cue of
   * `field_overwritten` looks at the background behind any text, named field or not.
   */
  lineBoxes?: unknown;
  /**
   * `photo_of_screen` scores of the uploads at their own resolution, when the caller measured
   * them already (`nativeScreenPeakRatios`); else they are measured from `images.originals`.
   */
  nativeScreenRatios?: Partial<Record<'front' | 'back', number | null>>;
  /** The portrait box when the face step already found it (saves a detection). */
  portrait?: FaceBox | null;
  /**
   * Where the document lies on each photo, as far as the reading step could tell (the extent
   * of the text it read). Keeps objects around the document out of colour measures.
   */
  documentRegions?: Partial<Record<'front' | 'back', Region>>;
}

export interface Region {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface TamperImages {
  front: NormalizedImage;
  back?: NormalizedImage;
  /**
   * The uploaded files, for detectors that need the camera's own pixels: a screen's grid, 2–4
   * camera pixels wide on a 4K frame, is averaged away in the working copy.
   */
  originals?: Partial<Record<'front' | 'back', Uint8Array>>;
}

/** What a detector measured: the value, whether it crossed its threshold, and how far. */
export interface Finding {
  side: ImageKind;
  /** 0..1, how clearly the sign is present (0 = at threshold, 1 = unmistakable). */
  strength: number;
  field?: string;
}

/** Maps how far past its threshold a measure is to 0..1 strength (linear, clamped). */
export function strengthBetween(value: number, threshold: number, unmistakable: number): number {
  const s = (value - threshold) / (unmistakable - threshold);
  return Math.round(Math.max(0, Math.min(1, s)) * 100) / 100;
}

/** Two cues raising one sign: the stronger one's strength, null when neither raised it. */
export function strongerSign(a: number | null, b: number | null): number | null {
  return a === null && b === null ? null : Math.max(a ?? 0, b ?? 0);
}
