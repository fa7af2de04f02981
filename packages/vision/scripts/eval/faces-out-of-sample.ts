import {
  type Calibration,
  calibrate,
  FUSED_CALIBRATION,
  fitCalibration,
} from '../../src/faces/calibration.ts';
import { pct, printTable } from './faces-common.ts';
import type { Half } from './fixture-split.ts';

/**
 * Face match out of sample: the calibration (each model's impostor statistics, then the fusion's)
 * fitted on the tuning half's face ↔ face pairs only, and the spec's promises checked on pairs of
 * the holdout half, which shares no person with the tuning half (the split groups by person).
 * The calibration in use was fitted on all fixture faces, so its figures on the holdout are
 * in-sample; both are printed, the out-of-sample ones are the ones to report.
 */
export interface SplitSample {
  file: string;
  person: string;
  source: 'face' | 'document';
  half: Half;
  embeddings: Record<string, Float32Array>;
}

const cos = (a: Float32Array, b: Float32Array) => {
  let d = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    d += a[i]! * b[i]!;
    na += a[i]! ** 2;
    nb += b[i]! ** 2;
  }
  return d / Math.sqrt(na * nb);
};

type Pairs = { genuine: [SplitSample, SplitSample][]; impostor: [SplitSample, SplitSample][] };

function pairsOf(set: SplitSample[], cross?: SplitSample[]): Pairs {
  const out: Pairs = { genuine: [], impostor: [] };
  const all = cross
    ? set.flatMap((a) => cross.map((b) => [a, b] as [SplitSample, SplitSample]))
    : set.flatMap((a, i) => set.slice(i + 1).map((b) => [a, b] as [SplitSample, SplitSample]));
  for (const [a, b] of all) {
    if (a.file === b.file) continue;
    (a.person === b.person ? out.genuine : out.impostor).push([a, b]);
  }
  return out;
}

export function reportOutOfSample(samples: SplitSample[], models: string[]): void {
  const faces = (half: Half) => samples.filter((s) => s.source === 'face' && s.half === half);
  const docs = (half: Half) => samples.filter((s) => s.source === 'document' && s.half === half);
  const tuning = pairsOf(faces('tuning'));
  // Per model: impostor mean and spread on the tuning half; then the fusion of those z-scores.
  const perModel: Calibration[] = models.map((m) =>
    fitCalibration(
      m,
      tuning.genuine.map(([a, b]) => cos(a.embeddings[m]!, b.embeddings[m]!)),
      tuning.impostor.map(([a, b]) => cos(a.embeddings[m]!, b.embeddings[m]!)),
    ),
  );
  const fused = (a: SplitSample, b: SplitSample) =>
    perModel.reduce(
      (sum, c, i) =>
        sum + (cos(a.embeddings[models[i]!]!, b.embeddings[models[i]!]!) - c.impostorMean) / c.impostorStd,
      0,
    ) / perModel.length;
  const range: [number, number] = [
    perModel.reduce((s, c) => s + (-1 - c.impostorMean) / c.impostorStd, 0) / perModel.length,
    perModel.reduce((s, c) => s + (1 - c.impostorMean) / c.impostorStd, 0) / perModel.length,
  ];
  const fusedCal: Calibration = {
    ...fitCalibration(
      'fusion',
      tuning.genuine.map(([a, b]) => fused(a, b)),
      tuning.impostor.map(([a, b]) => fused(a, b)),
    ),
    range,
  };
  console.log(
    '\n### Face match out of sample (calibration fitted on the tuning half, pairs of the holdout half)\n',
  );
  console.log(
    `Tuning half: ${faces('tuning').length} faces, ${tuning.genuine.length} genuine / ${tuning.impostor.length} impostor pairs.`,
  );
  console.log(`Fitted: ${JSON.stringify(perModel)} fusion ${JSON.stringify(fusedCal)}\n`);
  const rows: (string | number)[][] = [];
  for (const [label, pairs] of [
    ['face ↔ face', pairsOf(faces('holdout'))],
    ['document ↔ face', pairsOf(docs('holdout'), faces('holdout'))],
  ] as const) {
    const out = pairs.genuine.map(([a, b]) => calibrate(fused(a, b), fusedCal));
    const outImp = pairs.impostor.map(([a, b]) => calibrate(fused(a, b), fusedCal));
    const genOk = out.filter((v) => v >= 0.45).length;
    const impOk = outImp.filter((v) => v < 0.3).length;
    rows.push([
      label,
      pairs.genuine.length,
      `${genOk} (${pct(genOk, out.length)})`,
      pairs.impostor.length,
      `${impOk} (${pct(impOk, outImp.length)})`,
      outImp.length ? Math.max(...outImp).toFixed(3) : 'n/a',
    ]);
  }
  printTable(
    ['holdout pairs', 'genuine', 'genuine ≥ 0.45', 'impostor', 'impostor < 0.30', 'max impostor'],
    rows,
  );
  console.log(`\n(Calibration in use, fitted on all fixture faces: ${JSON.stringify(FUSED_CALIBRATION)})`);
}
