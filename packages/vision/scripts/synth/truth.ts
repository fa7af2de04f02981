import type { CaptureParams } from './capture.ts';
import type { DocumentKind, Holder } from './content.ts';
import type { Point, Quad } from './geometry.ts';
import type { FieldName } from './layouts.ts';

/**
 * What is known about a generated image, saved beside it as JSON. Coordinates are in the final
 * image's pixels (after perspective, tilt and quarter turns); quads go clockwise from the
 * document's own top-left corner.
 */
export interface SynthTruth {
  /** Stable name: seed and layouts. */
  id: string;
  seed: number;
  kind: DocumentKind;
  /** The layouts drawn in this image (one, or a card's front and back). */
  layouts: string[];
  /** True when any drawn layout is held out of tuning. */
  heldOut: boolean;
  /** Which sides of the document this image shows. */
  sides: ('front' | 'back' | 'page')[];
  /** What the reader should classify: core's document type and layout. */
  documentType: 'passport' | 'cni';
  documentLayout: 'td3' | 'td1' | 'td2' | 'niger_paper_card';
  country: string;
  /** The MRZ lines visible in this image (null: none in this image). */
  mrz: string[] | null;
  /** Printed values visible in this image, as the reader should return them (ISO dates). */
  printed: Partial<Record<FieldName, string>>;
  /** All of the holder's data (both sides). */
  holder: Holder;
  /** Each printed value and MRZ line (`mrz_1`...), with the side it is on. */
  boxes: { field: string; side: 'front' | 'back' | 'page'; quad: Quad }[];
  portrait: { side: 'front' | 'page'; quad: Quad; face: Quad; index: number } | null;
  documentQuads: { side: 'front' | 'back' | 'page'; quad: Quad }[];
  width: number;
  height: number;
  /** The capture's parameters (null for an upright, undegraded render). */
  capture: CaptureParams | null;
}

export function mapQuad(q: Quad, f: (p: Point) => Point): Quad {
  return q.map(f) as Quad;
}
