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
 * The constants in use (src/faces/calibration.ts) are the ones this fit prints ("Fitted"), so
 * the holdout table is the figure to report; the tables faces.ts prints before it pool both
 * halves and are in-sample.
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

/** Folds of the cross-validation on the tuning half (persons dealt round-robin, sorted by name). */
const FOLDS = 5;

function fitModels(pairs: Pairs, models: string[]): Calibration[] {
  return models.map((m) =>
    fitCalibration(
      m,
      pairs.genuine.map(([a, b]) => cos(a.embeddings[m]!, b.embeddings[m]!)),
      pairs.impostor.map(([a, b]) => cos(a.embeddings[m]!, b.embeddings[m]!)),
    ),
  );
}

function fusedWith(perModel: Calibration[], models: string[]) {
  return (a: SplitSample, b: SplitSample) =>
    perModel.reduce(
      (sum, c, i) =>
        sum + (cos(a.embeddings[models[i]!]!, b.embeddings[models[i]!]!) - c.impostorMean) / c.impostorStd,
      0,
    ) / perModel.length;
}

/**
 * The calibration fitted by cross-validation on the tuning half. Each model's impostor
 * statistics come from all tuning pairs (they only standardise the cosines). The fusion's
 * statistics come from out-of-fold scores: persons are dealt into FOLDS folds; for each fold the
 * models are fitted without its persons and the pairs that involve its persons are scored with
 * that fit, which is how the service meets a new face. Out-of-fold scores spread wider than
 * in-sample ones (σ 1.15 against 0.85 on the fixtures' tuning half: the in-sample fit had put
 * the warn knot too low, 1 holdout stranger in 151 reached warn). The fusion's constants are the
 * normal fit of those out-of-fold scores (a normal fit, as calibration.ts explains, because an
 * empirical 0.5 % point of a few hundred pairs is one or two pairs). The empirical 99.5 % point
 * is returned to be printed beside it: widening σ up to it was measured and rejected
 * (docs/face-calibration.md).
 */
export function crossValidatedCalibration(
  tuningFaces: SplitSample[],
  models: string[],
): { perModel: Calibration[]; fused: Calibration; normalStd: number; q995: number; outOfFold: number } {
  const all = pairsOf(tuningFaces);
  const perModel = fitModels(all, models);
  const persons = [...new Set(tuningFaces.map((s) => s.person))].sort();
  const foldOf = new Map(persons.map((p, i) => [p, i % FOLDS]));
  const genuine: number[] = [];
  const impostor: number[] = [];
  for (let f = 0; f < FOLDS; f++) {
    const inFold = (s: SplitSample) => foldOf.get(s.person) === f;
    const train = pairsOf(tuningFaces.filter((s) => !inFold(s)));
    if (!train.impostor.length) continue;
    const score = fusedWith(fitModels(train, models), models);
    const test = pairsOf(tuningFaces);
    for (const [a, b] of test.genuine) if (inFold(a) || inFold(b)) genuine.push(score(a, b));
    // A pair across two folds is scored by both folds' fits (each is out of fold for one side).
    for (const [a, b] of test.impostor) if (inFold(a) || inFold(b)) impostor.push(score(a, b));
  }
  const range: [number, number] = [
    perModel.reduce((s, c) => s + (-1 - c.impostorMean) / c.impostorStd, 0) / perModel.length,
    perModel.reduce((s, c) => s + (1 - c.impostorMean) / c.impostorStd, 0) / perModel.length,
  ];
  const fit = fitCalibration('fusion', genuine, impostor);
  const sorted = [...impostor].sort((a, b) => a - b);
  const q995 = sorted[Math.min(sorted.length - 1, Math.floor(0.995 * sorted.length))] ?? fit.impostorMean;
  return {
    perModel,
    fused: { ...fit, range },
    normalStd: fit.impostorStd,
    q995: Math.round(q995 * 1e4) / 1e4,
    outOfFold: impostor.length,
  };
}

export function reportOutOfSample(samples: SplitSample[], models: string[]): void {
  const faces = (half: Half) => samples.filter((s) => s.source === 'face' && s.half === half);
  const docs = (half: Half) => samples.filter((s) => s.source === 'document' && s.half === half);
  const tuning = pairsOf(faces('tuning'));
  const cv = crossValidatedCalibration(faces('tuning'), models);
  const { perModel, fused: fusedCal } = cv;
  const fused = fusedWith(perModel, models);
  console.log(
    '\n### Face match out of sample (calibration fitted by cross-validation on the tuning half, pairs of the holdout half)\n',
  );
  console.log(
    `Tuning half: ${faces('tuning').length} faces, ${tuning.genuine.length} genuine / ${tuning.impostor.length} impostor pairs.`,
  );
  console.log(`Fitted: ${JSON.stringify(perModel)} fusion ${JSON.stringify(fusedCal)}`);
  console.log(
    `Out-of-fold impostor scores: ${cv.outOfFold}, normal fit σ ${cv.normalStd}, empirical 99.5 % point ${cv.q995}\n`,
  );
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
