/**
 * Maps the raw face score to the spec's similarity scale, on which 0.45 means "pass" and 0.30
 * "warn" whatever model is used. The raw score the service uses is the *fusion* of two models
 * (see `fusedScore`): the cosine similarities of FaceRes and of the face-api ResNet (dlib)
 * embeddings, each standardised on its own impostor distribution, averaged.
 *
 * The map is piecewise linear through knots anchored on the *impostor* score distribution,
 * modelled as a normal distribution N(μ, σ) fitted on impostor pairs:
 *
 *   raw                      → spec
 *   -1                       → 0
 *   μ                        → 0.15   a typical stranger
 *   μ + 2.576 σ  (FAR 0.5 %) → 0.30   warn threshold: 1 stranger in 200 reaches it
 *   μ + 3.090 σ  (FAR 0.1 %) → 0.45   pass threshold: 1 stranger in 1000 reaches it
 *   genuine median           → 0.75   a typical same-person pair
 *   1                        → 1
 *
 * Why these anchors: the spec's thresholds are decisions about risk, so they are tied to false
 * accept rates, the quantity a fraud analyst reasons with. The normal fit (instead of empirical
 * quantiles) keeps the 0.1 % point stable when there are only hundreds of impostor pairs, where
 * the empirical 0.1 % quantile would just be the single highest pair.
 *
 * Why FAR 0.5 % and not 1 % for warn: the service promises that at most 1 % of strangers reach
 * warn. A knot placed exactly at the fitted 1 % point meets that promise only about half the
 * time on a new population (the fit's own error, and impostor tails heavier than a normal's);
 * half the rate leaves the margin. The pass knot stays at 0.1 %: lowering the warn knot moves no
 * pair across pass. How the constants below
 * were fitted, on which data, and the resulting error rates: docs/face-calibration.md.
 */

export interface Calibration {
  /** Name of the embedding model (or fusion) the constants belong to. */
  model: string;
  impostorMean: number;
  impostorStd: number;
  genuineMedian: number;
  /** Lowest and highest possible raw score (→ spec 0 and 1). A cosine's, [-1, 1], when absent. */
  range?: [number, number];
}

/** One-sided standard normal quantiles for FAR 0.5 % and 0.1 %. */
const Z_FAR_05 = 2.576;
const Z_FAR_01 = 3.09;

/**
 * All constants below were fitted on the fixtures' tuning half only (face↔face pairs, eye-aligned
 * grey crops; `npx tsx packages/vision/scripts/eval/faces.ts` prints them as "Fitted"): each
 * model's impostor statistics on all 267 tuning impostor pairs, the fusion's by 5-fold
 * cross-validation over persons (`crossValidatedCalibration`, scripts/eval/faces-out-of-sample.ts),
 * so that the fusion's spread is the one new faces show. The holdout half is only reported.
 * See docs/face-calibration.md.
 */
export const FACERES_CALIBRATION: Calibration = {
  model: 'faceres',
  impostorMean: 0.3536,
  impostorStd: 0.0718,
  genuineMedian: 0.6788,
};

/**
 * The face-api ResNet's cosines sit high and close together (impostors around 0.84): its
 * descriptors share a large common component, so only the standardised score means anything.
 */
export const RESNET_CALIBRATION: Calibration = {
  model: 'faceapi-resnet',
  impostorMean: 0.8351,
  impostorStd: 0.0279,
  genuineMedian: 0.9598,
};

/** The models whose scores are fused, in the order `fusedScore` takes their cosines. */
export const FUSED_MODELS: readonly Calibration[] = [FACERES_CALIBRATION, RESNET_CALIBRATION];

/**
 * Score-level fusion: each model's cosine becomes a z-score on its own impostor distribution
 * ("how many standard deviations above a typical stranger"), and the z-scores are averaged.
 * The two networks (MobileNet trained on VGGFace2; dlib's ResNet on its own face set) make
 * different mistakes, so the average separates genuine from impostor pairs better than either
 * alone (measured in docs/face-calibration.md).
 */
export function fusedScore(cosines: readonly number[]): number {
  let sum = 0;
  FUSED_MODELS.forEach((c, i) => {
    sum += (cosines[i]! - c.impostorMean) / c.impostorStd;
  });
  return sum / FUSED_MODELS.length;
}

/** Calibration of the fused score (its range: the fusion of all cosines at -1, and at 1). */
export const FUSED_CALIBRATION: Calibration = {
  model: 'fusion',
  impostorMean: -0.0366,
  impostorStd: 1.1492,
  genuineMedian: 4.7425,
  range: [fusedScore(FUSED_MODELS.map(() => -1)), fusedScore(FUSED_MODELS.map(() => 1))],
};

export function calibrationKnots(c: Calibration): [number, number][] {
  const [lo, hi] = c.range ?? [-1, 1];
  const warn = c.impostorMean + Z_FAR_05 * c.impostorStd;
  const pass = c.impostorMean + Z_FAR_01 * c.impostorStd;
  // Keep the knots strictly increasing even for an unusual fit.
  const typical = Math.min(hi - 0.0005 * (hi - lo), Math.max(c.genuineMedian, pass + 0.01 * (hi - lo)));
  return [
    [lo, 0],
    [c.impostorMean, 0.15],
    [warn, 0.3],
    [pass, 0.45],
    [typical, 0.75],
    [hi, 1],
  ];
}

/** Raw score (a model's cosine, or the fused score with FUSED_CALIBRATION) → spec similarity in [0, 1]. Monotone increasing. */
export function calibrate(raw: number, c: Calibration = FACERES_CALIBRATION): number {
  const knots = calibrationKnots(c);
  if (raw <= knots[0]![0]) return 0;
  for (let i = 1; i < knots.length; i++) {
    const [x1, y1] = knots[i]!;
    const [x0, y0] = knots[i - 1]!;
    if (raw <= x1) return y0 + ((raw - x0) / (x1 - x0)) * (y1 - y0);
  }
  return 1;
}

/** Fits the calibration constants from raw genuine and impostor scores. */
export function fitCalibration(model: string, genuine: number[], impostor: number[]): Calibration {
  const mean = impostor.reduce((a, b) => a + b, 0) / impostor.length;
  const variance = impostor.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, impostor.length - 1);
  const sorted = [...genuine].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const round = (v: number) => Math.round(v * 1e4) / 1e4;
  return {
    model,
    impostorMean: round(mean),
    impostorStd: round(Math.sqrt(variance)),
    genuineMedian: round(median),
  };
}
