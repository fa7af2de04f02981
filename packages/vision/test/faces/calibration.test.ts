import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  calibrate,
  calibrationKnots,
  FACERES_CALIBRATION,
  FUSED_CALIBRATION,
  FUSED_MODELS,
  fitCalibration,
  fusedScore,
} from '../../src/faces/calibration.ts';

describe('similarity calibration', () => {
  it('is monotone and stays within 0..1', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        (a, b) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const clo = calibrate(lo);
          const chi = calibrate(hi);
          return clo <= chi + 1e-12 && clo >= 0 && chi <= 1;
        },
      ),
    );
  });

  it('puts the warn and pass thresholds at the impostor FAR 0.5 % and 0.1 % points', () => {
    const { impostorMean: m, impostorStd: s } = FACERES_CALIBRATION;
    expect(calibrate(m + 2.576 * s)).toBeCloseTo(0.3, 6);
    expect(calibrate(m + 3.09 * s)).toBeCloseTo(0.45, 6);
    expect(calibrate(1)).toBe(1);
    expect(calibrate(-1)).toBe(0);
  });

  it('fits mean, deviation and median from scores, and keeps knots increasing for odd fits', () => {
    const fit = fitCalibration('m', [0.9, 0.8, 0.7], [0.1, 0.2, 0.3]);
    expect(fit).toEqual({ model: 'm', impostorMean: 0.2, impostorStd: 0.1, genuineMedian: 0.8 });
    // Genuine median below the pass point: the knots must still increase.
    const odd = calibrationKnots({ model: 'x', impostorMean: 0.5, impostorStd: 0.15, genuineMedian: 0.6 });
    for (let i = 1; i < odd.length; i++) expect(odd[i]![0]).toBeGreaterThan(odd[i - 1]![0]);
  });

  it('fuses model cosines as the mean of their impostor z-scores', () => {
    // Every model at its own typical-stranger cosine → fused 0; one model 2σ above → fused 2/n.
    const typical = FUSED_MODELS.map((c) => c.impostorMean);
    expect(fusedScore(typical)).toBeCloseTo(0, 12);
    const oneHigh = FUSED_MODELS.map((c, i) =>
      i === 0 ? c.impostorMean + 2 * c.impostorStd : c.impostorMean,
    );
    expect(fusedScore(oneHigh)).toBeCloseTo(2 / FUSED_MODELS.length, 12);
  });

  it('maps the fused score monotonically onto 0..1 over its whole range', () => {
    const [lo, hi] = FUSED_CALIBRATION.range!;
    expect(calibrate(fusedScore(FUSED_MODELS.map(() => -1)), FUSED_CALIBRATION)).toBe(0);
    expect(calibrate(fusedScore(FUSED_MODELS.map(() => 1)), FUSED_CALIBRATION)).toBe(1);
    const { impostorMean: m, impostorStd: s } = FUSED_CALIBRATION;
    expect(calibrate(m + 2.576 * s, FUSED_CALIBRATION)).toBeCloseTo(0.3, 6);
    expect(calibrate(m + 3.09 * s, FUSED_CALIBRATION)).toBeCloseTo(0.45, 6);
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -1, max: 1, noNaN: true }), {
          minLength: FUSED_MODELS.length,
          maxLength: FUSED_MODELS.length,
        }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (cosines, step) => {
          const a = fusedScore(cosines);
          const b = a + step * (hi - a);
          const ca = calibrate(a, FUSED_CALIBRATION);
          const cb = calibrate(b, FUSED_CALIBRATION);
          return a >= lo - 1e-9 && ca >= 0 && cb <= 1 && ca <= cb + 1e-12;
        },
      ),
    );
  });
});
