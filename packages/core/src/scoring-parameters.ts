/**
 * Every tunable number of the judging, in one place (spec "Scoring rules": "thresholds and
 * weights may be tuned later; the principle stays"). The logic in `judge/` reads them from
 * here and nowhere else; `docs/scoring.md` explains each one.
 */
export const SCORING = {
  /** Share of each check in the average; a skipped check's weight goes to the others. */
  weights: {
    face_match: 0.35,
    mrz_checksum: 0.2,
    viz_mrz_consistency: 0.2,
    tamper: 0.15,
    expiry: 0.1,
  },
  /** Verdict from the score (rounded to 2 decimals first). */
  thresholds: {
    /** At or above, and no check in fail: verified. */
    verified: 0.9,
    /** At or above (and below `verified`): review; below: rejected. */
    review: 0.6,
  },
  /** Caps, applied in this order (DESIGN.md): grave → zero → fail → no MRZ. */
  caps: {
    /** Wrong MRZ check digit, surname/given names/date of birth differing, unreadable expiry, no portrait. */
    grave: 0.5,
    /** Expired document or face similarity below `face.zeroBelow`. */
    zero: 0,
    /** Any check in fail: "below 0.90", i.e. at most 0.89. */
    fail: 0.89,
    /** No MRZ: review at best, except the Niger paper card under `paperCard` conditions. */
    noMrz: 0.85,
  },
  /** Face similarity on the spec's calibrated 0..1 scale. */
  face: {
    /** Pass at or above. */
    pass: 0.45,
    /** Warn from here up to `pass`; fail below, and the whole score is set to 0. */
    zeroBelow: 0.3,
    /** The check's score rises linearly from 0 at `scoreZeroAt` to 1 at `scoreFullAt`. */
    scoreZeroAt: 0.3,
    scoreFullAt: 0.6,
  },
  tamper: {
    /**
     * Check score for each anomaly, by kind and severity; the check takes the lowest. Signs of
     * tampering fail at high severity; capture problems (glare, blur, partial document) never
     * fail, they only cost points (spec: "capture anomalies never fail the check alone").
     */
    anomalyScore: {
      tampering: { low: 0.7, medium: 0.4, high: 0 },
      capture: { low: 0.9, medium: 0.7, high: 0.5 },
    },
    /** Below this legibility (mean OCR confidence, 0..1) the document counts as illegible: fail. */
    minLegibility: 0.4,
    /**
     * Highest tamper score of the Niger paper card: it has no security printing (no laminate,
     * hologram or MRZ) for the analyser to examine, so finding no sign is weaker evidence than
     * on a modern card. With this value a paper card that passes everything else reaches 0.90
     * from a face similarity of about 0.57, as the spec states.
     */
    paperCardMaxScore: 0.8,
  },
  /** Older Niger paper card: validity and the conditions to escape the no-MRZ cap. */
  paperCard: {
    validityYears: 5,
    /** Face similarity needed to escape the no-MRZ cap. */
    minSimilarity: 0.5,
    /** "Clean reading": the four fields read and the text at least this legible. */
    minLegibility: 0.6,
  },
} as const;

export type CheckName = keyof typeof SCORING.weights;

/** The five checks, in the order of every verification's `checks` array. */
export const CHECK_ORDER: readonly CheckName[] = [
  'mrz_checksum',
  'expiry',
  'viz_mrz_consistency',
  'tamper',
  'face_match',
];
