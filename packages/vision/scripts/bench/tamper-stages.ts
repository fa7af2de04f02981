import { pathToFileURL } from 'node:url';
import { normalizeImage } from '../../src/image/normalize.ts';
import { detectTamper, type TamperContext, type TamperImages } from '../../src/tamper/index.ts';
import { nativeScreenPeakRatios } from '../../src/tamper/screen.ts';
import { type DocumentKind, type GeneratedImage, generateDocument, type Quad } from '../synth/index.ts';

/**
 * The tamper step's time per detector, on generated documents (scripts/synth: passports, and
 * two-sided colour cards photographed front and back), as the analyzer runs it: the field boxes,
 * lines, portrait and document extent it would get from the reading and face steps (here the
 * generator's truth; the portrait found by the face detector, whose result the face step leaves
 * cached as in the analyzer), the uploads' native-resolution screen score measured beforehand
 * (the analyzer overlaps it with reading). Prints the median per detector and of the whole step, per
 * document kind: median over documents of each document's median over `runs`.
 *
 * Times are the process's CPU time, not wall time: the machine is shared, and under load a wall
 * clock counts the other processes' turns (the detectors are synchronous JavaScript on one
 * thread; only the capture model's run may use onnxruntime's threads, whose time counts too).
 *
 *   npx tsx packages/vision/scripts/bench/tamper-stages.ts [documents per kind] [runs]
 *   npm run bench -- tamper            (BENCH_RUNS sets the runs)
 */

export const KINDS: [string, DocumentKind][] = [
  ['passport', 'passport'],
  ['card (front and back)', 'sahel_card'],
];
/** Seeds of the benchmark's documents: fixed, so that two runs time the same pictures. */
export const FIRST_SEED = 7100;

/** CPU time of the process in ms (user and system, all threads). */
export const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const boundsOf = (q: Quad, k: number) => {
  const xs = q.map((p) => p[0] * k);
  const ys = q.map((p) => p[1] * k);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
};

/** The detector inputs of one generated document (both sides of a card). */
export async function tamperInputs(
  shots: GeneratedImage[],
): Promise<{ images: TamperImages; context: TamperContext }> {
  const sides = ['front', 'back'] as const;
  const images: Partial<TamperImages> = { originals: {} };
  const textBoxes: { field: string; side: 'front' | 'back'; quad: [number, number][] }[] = [];
  const documentRegions: NonNullable<TamperContext['documentRegions']> = {};
  for (const [i, shot] of shots.entries()) {
    const side = sides[i]!;
    const bytes = new Uint8Array(shot.image);
    const image = await normalizeImage(bytes);
    images[side] = image;
    images.originals![side] = bytes;
    // Truth is in the upload's pixels; the detectors work on the normalized copy.
    const k = image.width / image.originalWidth;
    for (const b of shot.truth.boxes)
      textBoxes.push({ field: b.field, side, quad: b.quad.map((p) => [p[0] * k, p[1] * k]) });
    const page = shot.truth.documentQuads[0];
    if (page) documentRegions[side] = boundsOf(page.quad, k);
  }
  const full = images as TamperImages;
  return {
    images: { front: full.front, ...(full.back ? { back: full.back } : {}) },
    context: {
      layout: shots[0]!.truth.documentLayout,
      textBoxes,
      lineBoxes: textBoxes.map((b) => ({ side: b.side, text: b.field, quad: b.quad })),
      documentRegions,
      nativeScreenRatios: await nativeScreenPeakRatios(full),
    },
  };
}

export async function benchTamperStages(documents = 6, runs = 3): Promise<void> {
  console.log(
    `Tamper step per detector, ${documents} generated documents per kind (seeds ${FIRST_SEED}+, mild capture), median of ${runs} runs each (CPU ms)\n`,
  );
  const rows: string[][] = [];
  const stageNames = new Set<string>();
  const perKind: { kind: string; total: number; stages: Map<string, number> }[] = [];
  for (const [label, kind] of KINDS) {
    const totals: number[] = [];
    const stageRuns = new Map<string, number[]>();
    for (let d = 0; d < documents; d++) {
      const doc = await generateDocument(FIRST_SEED + d, { kind, split: 'tuning', level: 'mild' });
      const { images, context } = await tamperInputs(doc.back ? [doc, doc.back] : [doc]);
      // Warm-up: the capture model's session, JIT, and the portrait (cached per image, as the
      // face step leaves it in the analyzer).
      await detectTamper(images, context);
      const docTotals: number[] = [];
      const docStages = new Map<string, number[]>();
      for (let r = 0; r < runs; r++) {
        const stageTimes: Record<string, number> = {};
        const t0 = cpuMs();
        await detectTamper(images, context, { stageTimes, clock: cpuMs });
        docTotals.push(cpuMs() - t0);
        for (const [k, v] of Object.entries(stageTimes)) docStages.set(k, [...(docStages.get(k) ?? []), v]);
      }
      totals.push(median(docTotals));
      for (const [k, v] of docStages) {
        stageNames.add(k);
        stageRuns.set(k, [...(stageRuns.get(k) ?? []), median(v)]);
      }
    }
    perKind.push({
      kind: label,
      total: median(totals),
      stages: new Map([...stageRuns].map(([k, v]) => [k, median(v)])),
    });
  }
  const names = [...stageNames];
  console.log(`| detector | ${perKind.map((k) => k.kind).join(' | ')} |`);
  console.log(`|---|${perKind.map(() => '---:').join('|')}|`);
  for (const name of names) rows.push([name, ...perKind.map((k) => (k.stages.get(name) ?? 0).toFixed(1))]);
  rows.push(['**whole step**', ...perKind.map((k) => `**${k.total.toFixed(0)}**`)]);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchTamperStages(Number(process.argv[2] ?? 6), Number(process.argv[3] ?? 3));
  process.exit(0);
}
