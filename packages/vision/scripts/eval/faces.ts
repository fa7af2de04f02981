import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  countSignificant,
  DOCUMENT_FACE_MIN_RELATIVE_WIDTH,
  SELFIE_FACE_MIN_RELATIVE_WIDTH,
} from '../../src/faces/analyze.ts';
import {
  type Calibration,
  calibrate,
  FACERES_CALIBRATION,
  FUSED_CALIBRATION,
  FUSED_MODELS,
  fitCalibration,
  fusedScore,
  RESNET_CALIBRATION,
} from '../../src/faces/calibration.ts';
import { portraitSoftening } from '../../src/faces/descreen.ts';
import { detectDocumentFaces, detectSelfieFaces, type FaceBox, largestFace } from '../../src/faces/detect.ts';
import { cosine, type EmbeddingModel, embedFace } from '../../src/faces/embed.ts';
import { FACE_MODELS } from '../../src/faces/models.ts';
import type { NormalizedImage } from '../../src/image/normalize.ts';
import { loadFixtureImage, pct, printTable, readTruth } from './faces-common.ts';
import { reportOutOfSample } from './faces-out-of-sample.ts';
import { fixtureHalf, type Half } from './fixture-split.ts';

/**
 * Face evaluation on the fixture set: detection counts, verification (TAR at FAR 1 % and
 * 0.1 % over all genuine/impostor pairs), rank-1 identification, and the distributions on the
 * spec scale after calibration, for each embedding model alone (FaceRes, face-api ResNet) and
 * for their fusion, which is what the service uses. `--fit` also prints calibration constants
 * fitted on these pairs (refit the models first, then the fusion, which depends on them).
 *
 *   npx tsx packages/vision/scripts/eval/faces.ts [fixturesDir] [--fit]
 */

interface Sample {
  file: string;
  person: string;
  source: 'face' | 'document';
  half: Half;
  /** One embedding per evaluated model. */
  embeddings: Record<string, Float32Array>;
}

const FACE_KINDS = new Set(['face', 'face_live']);
/** Kinds whose image shows a document that carries a portrait (bona fide only). */
const PORTRAIT_DOC_KINDS = new Set(['passport', 'id_td1', 'id_td2', 'id_front', 'visa_mrva', 'visa_mrvb']);

/** Smallest threshold t such that at most `far` of the impostor scores are ≥ t (empirical). */
function thresholdAtFar(impostor: number[], far: number): number {
  const s = [...impostor].sort((a, b) => b - a);
  const allowed = Math.floor(far * s.length);
  return (s[allowed] ?? -1) + 1e-9;
}

async function embedAll(image: NormalizedImage, face: FaceBox, models: EmbeddingModel[], soften = 0) {
  const out: Record<string, Float32Array> = {};
  for (const m of models) out[m] = await embedFace(image, face, m, { soften });
  return out;
}

/** The models fused by the service, in FUSED_MODELS order. */
const MODELS = FUSED_MODELS.map((c) => c.model as EmbeddingModel);

export async function evaluateFaces(fixturesDir: string, options: { fit?: boolean } = {}): Promise<void> {
  const truth = await readTruth(fixturesDir);
  const samples: Sample[] = [];
  const detectionRows: (string | number)[][] = [];
  let selfieTotal = 0;
  let selfieOne = 0;
  let docTotal = 0;
  let docFound = 0;
  // Documents whose truth names the portrait's person certainly show a portrait; the others
  // may be card backs (no portrait), so they are counted apart.
  let labelledTotal = 0;
  let labelledFound = 0;
  const missedDocs: string[] = [];
  const softened: string[] = [];

  for (const [file, t] of Object.entries(truth)) {
    const multi = t.kind === 'face_multi';
    const isFace = FACE_KINDS.has(t.kind) || multi;
    const isDoc = PORTRAIT_DOC_KINDS.has(t.kind) && !t.attack;
    if (!isFace && !isDoc) continue;
    const image: NormalizedImage = await loadFixtureImage(fixturesDir, file);
    if (isFace) {
      const faces = await detectSelfieFaces(image);
      const count = countSignificant(faces, SELFIE_FACE_MIN_RELATIVE_WIDTH);
      const expected = multi ? (t.person?.split('|').length ?? 2) : 1;
      selfieTotal++;
      if (count === expected) selfieOne++;
      else detectionRows.push([file, `expected ${expected}, found ${count}`]);
      const main = largestFace(faces);
      if (!multi && main && t.person) {
        samples.push({
          file,
          person: t.person,
          source: 'face',
          half: fixtureHalf(file, t as Parameters<typeof fixtureHalf>[1]),
          embeddings: await embedAll(image, main, MODELS),
        });
      }
    } else {
      const faces = await detectDocumentFaces(image);
      const count = countSignificant(faces, DOCUMENT_FACE_MIN_RELATIVE_WIDTH);
      docTotal++;
      if (count >= 1) docFound++;
      else missedDocs.push(file);
      if (t.person) {
        labelledTotal++;
        if (count >= 1) labelledFound++;
      }
      const main = largestFace(faces);
      if (main && t.person) {
        // As analyzeFaces embeds a document's portrait: softened when printed through a screen.
        const soften = portraitSoftening(image, main);
        if (soften) softened.push(file);
        samples.push({
          file,
          person: t.person,
          source: 'document',
          half: fixtureHalf(file, t as Parameters<typeof fixtureHalf>[1]),
          embeddings: await embedAll(image, main, MODELS, soften),
        });
      }
    }
  }
  if (softened.length)
    console.log(`\nDocument portraits read as screened (softened): ${softened.join(', ')}`);

  console.log('\n### Face detection\n');
  printTable(
    ['set', 'images', 'correct face count', 'rate'],
    [
      ['faces (selfie-like; face_multi expects 2)', selfieTotal, selfieOne, pct(selfieOne, selfieTotal)],
      ['bona fide documents: portrait found', docTotal, docFound, pct(docFound, docTotal)],
      [
        '  of which with a labelled portrait (truth names the person)',
        labelledTotal,
        labelledFound,
        pct(labelledFound, labelledTotal),
      ],
    ],
  );
  if (detectionRows.length) printTable(['face image', 'count error'], detectionRows);
  if (missedDocs.length) console.log(`\nPortrait not found on: ${missedDocs.join(', ')}`);

  const faces = samples.filter((s) => s.source === 'face');
  const docs = samples.filter((s) => s.source === 'document');
  const fit = options.fit ?? false;
  const cosineOf = (model: string) => (a: Sample, b: Sample) =>
    cosine(a.embeddings[model]!, b.embeddings[model]!);
  reportScores(FACE_MODELS.faceres, cosineOf(FACE_MODELS.faceres), FACERES_CALIBRATION, faces, docs, fit);
  reportScores(FACE_MODELS.resnet, cosineOf(FACE_MODELS.resnet), RESNET_CALIBRATION, faces, docs, fit);
  const fused: Scorer = (a, b) => fusedScore(MODELS.map((m) => cosine(a.embeddings[m]!, b.embeddings[m]!)));
  reportScores('fusion (in use)', fused, FUSED_CALIBRATION, faces, docs, fit);
  reportOutOfSample(samples, MODELS);
}

type Scorer = (a: Sample, b: Sample) => number;

function scoreSets(faces: Sample[], docs: Sample[], score: Scorer) {
  const report = (label: string, set: Sample[], cross?: Sample[]) => {
    const genuine: number[] = [];
    const impostor: number[] = [];
    const pairs = cross
      ? set.flatMap((a) => cross.map((b) => [a, b] as const))
      : set.flatMap((a, i) => set.slice(i + 1).map((b) => [a, b] as const));
    for (const [a, b] of pairs) {
      if (a.file === b.file) continue;
      (a.person === b.person ? genuine : impostor).push(score(a, b));
    }
    return { label, genuine, impostor };
  };
  return [
    report('face ↔ face', faces),
    report('document ↔ document', docs),
    report('document ↔ face', docs, faces),
  ];
}

function reportScores(
  label: string,
  score: Scorer,
  cal: Calibration,
  faces: Sample[],
  docs: Sample[],
  fit: boolean,
): void {
  const sets = scoreSets(faces, docs, score);
  const [ff] = sets;
  const spec = (v: number) => calibrate(v, cal);

  console.log(`\n### Verification, ${label} (raw score → calibrated spec scale)\n`);
  const rows = sets.map(({ label, genuine, impostor }) => {
    const t1 = thresholdAtFar(impostor, 0.01);
    const t01 = thresholdAtFar(impostor, 0.001);
    const tar = (t: number) => pct(genuine.filter((g) => g >= t).length, genuine.length);
    const genBelow = genuine.filter((g) => spec(g) < 0.45).length;
    const impAbove = impostor.filter((s) => spec(s) >= 0.3).length;
    return [
      label,
      genuine.length,
      impostor.length,
      genuine.length && impostor.length ? tar(t1) : 'n/a',
      genuine.length && impostor.length ? tar(t01) : 'n/a',
      `${genBelow} (${pct(genBelow, genuine.length)})`,
      `${impAbove} (${pct(impAbove, impostor.length)})`,
    ];
  });
  printTable(
    ['pairs', 'genuine', 'impostor', 'TAR@FAR1%', 'TAR@FAR0.1%', 'genuine < 0.45', 'impostor ≥ 0.30'],
    rows,
  );

  // Rank-1 identification: each face with at least one other image of the same person is a
  // probe against all the other faces (gallery = everything else).
  let probes = 0;
  let hits = 0;
  for (const p of faces) {
    if (!faces.some((o) => o !== p && o.person === p.person)) continue;
    probes++;
    let best: Sample | undefined;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (const o of faces) {
      if (o === p) continue;
      const s = score(p, o);
      if (s > bestScore) {
        bestScore = s;
        best = o;
      }
    }
    if (best?.person === p.person) hits++;
  }
  console.log(`\nRank-1 identification (faces): ${hits}/${probes} = ${pct(hits, probes)}`);

  console.log('\n### Calibrated similarity distribution (face ↔ face)\n');
  const bins = [0, 0.15, 0.3, 0.45, 0.6, 0.75, 0.9, 1.0001];
  const hist = (values: number[]) =>
    bins.slice(0, -1).map((lo, i) => values.filter((v) => spec(v) >= lo && spec(v) < bins[i + 1]!).length);
  const g = hist(ff!.genuine);
  const im = hist(ff!.impostor);
  printTable(
    ['spec similarity', 'genuine', 'impostor'],
    bins
      .slice(0, -1)
      .map((lo, i) => [`${lo.toFixed(2)}–${Math.min(1, bins[i + 1]!).toFixed(2)}`, g[i]!, im[i]!]),
  );

  if (fit) {
    console.log(
      '\nFitted calibration (face ↔ face pairs):',
      JSON.stringify(fitCalibration(cal.model, ff!.genuine, ff!.impostor)),
    );
    console.log('Calibration used above:', JSON.stringify(cal));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const dir =
    args.find((a) => !a.startsWith('--')) ?? resolve(process.env.FIXTURES_DIR ?? '../shared/fixtures');
  await evaluateFaces(dir, { fit: args.includes('--fit') });
}
