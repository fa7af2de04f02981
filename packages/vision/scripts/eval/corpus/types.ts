import type { RgbImage } from '../../../src/image/raster.ts';
import type { Rng } from './rng.ts';

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Where things are on a genuine source image (its own pixels). */
export interface TruthBoxes {
  portrait?: Rect;
  /**
   * The printed portrait photo's own extent, when the source knows it (synthetic documents):
   * a forger cuts along it. Absent for the fixtures (only the face box is found there).
   */
  photo?: Rect;
  /** Printed field values and MRZ lines (one line of text each). */
  fields: { field: string; box: Rect }[];
}

/** A genuine document picture with its truth boxes. */
export interface GenuineSource {
  name: string;
  image: RgbImage;
  boxes: TruthBoxes;
  /**
   * Who the portrait shows, when several sources may share a photo (the synthetic documents
   * draw theirs from a few pictures): a swap's donor must be someone else.
   */
  portraitId?: string;
  /** Layout for the tamper step (the paper card has its own rules). */
  layout: 'td1' | 'td2' | 'td3' | 'niger_paper_card' | 'unknown';
}

/** One way of forging: what it produces and how the phone then captures it. */
export interface Attack {
  kind: string;
  /** The sign the tamper step should raise. */
  expected: string;
  /** What it needs from the source's truth boxes. */
  needs?: 'portrait' | 'fields';
  make(source: GenuineSource, rng: Rng, donor?: GenuineSource): Promise<RgbImage>;
  /** The attack carries its own camera geometry (screen recaptures). */
  flatCapture?: boolean;
}
