import { pathToFileURL } from 'node:url';
import {
  countSignificant,
  DOCUMENT_FACE_MIN_RELATIVE_WIDTH,
  SELFIE_FACE_MIN_RELATIVE_WIDTH,
} from '../../src/faces/analyze.ts';
import { calibrate, FACERES_CALIBRATION, fitCalibration } from '../../src/faces/calibration.ts';
import { detectDocumentFaces, detectSelfieFaces, type FaceBox } from '../../src/faces/detect.ts';
import { cosine, embedFace } from '../../src/faces/embed.ts';
import type { NormalizedImage } from '../../src/image/normalize.ts';
import { loadFixtureImage, pct, printTable, readTruth } from './faces-common.ts';

/**
 * Face evaluation on the fixture set: detection counts, verification (TAR at FAR 1 % and
 * 0.1 % over all genuine/impostor pairs), rank-1 identification, and the distributions on the
 * spec scale after calibration. `--fit` also prints calibration constants fitted on these pairs.
 *
 *   npx tsx packages/vision/scripts/eval/faces.ts [fixturesDir] [--fit]
 */

interface Sample {
  file: string;
  person: string;
  source: 'face' | 'document';
  embedding: Float32Array;
}

const FACE_KINDS = new Set(['face', 'face_live']);
/** Kinds whose image shows a document that carries a portrait (bona fide only). */
const PORTRAIT_DOC_KINDS = new Set(['passport', 'id_td1', 'id_td2', 'id_front', 'visa_mrva', 'visa_mrvb']);

function largest(faces: FaceBox[]): FaceBox | undefined {
  return faces.reduce<FaceBox | undefined>((b, f) => (!b || f.w > b.w ? f : b), undefined);
}

/** Smallest threshold t such that at most `far` of the impostor scores are ≥ t (empirical). */
function thresholdAtFar(impostor: number[], far: number): number {
  const s = [...impostor].sort((a, b) => b - a);
  const allowed = Math.floor(far * s.length);
  return (s[allowed] ?? -1) + 1e-9;
}

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
      const main = largest(faces);
      if (!multi && main && t.person) {
        samples.push({ file, person: t.person, source: 'face', embedding: await embedFace(image, main) });
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
      const main = largest(faces);
      if (main && t.person) {
        samples.push({ file, person: t.person, source: 'document', embedding: await embedFace(image, main) });
      }
    }
  }

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

  const report = (label: string, set: Sample[], cross?: Sample[]) => {
    const genuine: number[] = [];
    const impostor: number[] = [];
    const pairs = cross
      ? set.flatMap((a) => cross.map((b) => [a, b] as const))
      : set.flatMap((a, i) => set.slice(i + 1).map((b) => [a, b] as const));
    for (const [a, b] of pairs) {
      if (a.file === b.file) continue;
      (a.person === b.person ? genuine : impostor).push(cosine(a.embedding, b.embedding));
    }
    return { label, genuine, impostor };
  };

  const faces = samples.filter((s) => s.source === 'face');
  const docs = samples.filter((s) => s.source === 'document');
  const sets = [
    report('face ↔ face', faces),
    report('document ↔ document', docs),
    report('document ↔ face', docs, faces),
  ];

  console.log('\n### Verification (raw cosine → calibrated spec scale)\n');
  const rows = sets.map(({ label, genuine, impostor }) => {
    const t1 = thresholdAtFar(impostor, 0.01);
    const t01 = thresholdAtFar(impostor, 0.001);
    const tar = (t: number) => pct(genuine.filter((g) => g >= t).length, genuine.length);
    const genBelow = genuine.filter((g) => calibrate(g) < 0.45).length;
    const impAbove = impostor.filter((s) => calibrate(s) >= 0.3).length;
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
    let bestScore = -2;
    for (const o of faces) {
      if (o === p) continue;
      const s = cosine(p.embedding, o.embedding);
      if (s > bestScore) {
        bestScore = s;
        best = o;
      }
    }
    if (best?.person === p.person) hits++;
  }
  console.log(`\nRank-1 identification (faces): ${hits}/${probes} = ${pct(hits, probes)}`);

  console.log('\n### Calibrated similarity distribution (face ↔ face)\n');
  const [ff] = sets;
  const bins = [0, 0.15, 0.3, 0.45, 0.6, 0.75, 0.9, 1.0001];
  const hist = (values: number[]) =>
    bins
      .slice(0, -1)
      .map((lo, i) => values.filter((v) => calibrate(v) >= lo && calibrate(v) < bins[i + 1]!).length);
  const g = hist(ff!.genuine);
  const im = hist(ff!.impostor);
  printTable(
    ['spec similarity', 'genuine', 'impostor'],
    bins
      .slice(0, -1)
      .map((lo, i) => [`${lo.toFixed(2)}–${Math.min(1, bins[i + 1]!).toFixed(2)}`, g[i]!, im[i]!]),
  );

  if (options.fit) {
    const fitted = fitCalibration('faceres', ff!.genuine, ff!.impostor);
    console.log('\nFitted calibration (face ↔ face pairs):', JSON.stringify(fitted));
    console.log('Calibration in use:', JSON.stringify(FACERES_CALIBRATION));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const dir = args.find((a) => !a.startsWith('--')) ?? '/work/shared/fixtures';
  await evaluateFaces(dir, { fit: args.includes('--fit') });
}
