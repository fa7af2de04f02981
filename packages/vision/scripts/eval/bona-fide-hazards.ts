import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { analyzeUpload, analyzeWithTruth, failsCheck } from './corpus/analyze.ts';
import { corpusSources, sourcePicked } from './corpus/fresh-sources.ts';
import { addBlur, addGlare, addLowLight, addMarks, addOverexposure, type Hazard } from './corpus/hazards.ts';
import { phoneCaptureMapped } from './corpus/phone-capture.ts';
import { decodeRgb, encodeJpeg } from './corpus/raster-io.ts';
import { seededRng, seedOf } from './corpus/rng.ts';
import { describeSignals, fileSlug } from './corpus/signal-text.ts';
import type { GenuineSource } from './corpus/types.ts';
import { pct, printTable } from './faces-common.ts';
import type { Half } from './fixture-split.ts';

/**
 * Genuine documents under what is no forgery (corpus/hazards.ts: glare, blur, wear with stamps
 * and handwriting, and all three at once; a dim room, a blown-out exposure), through the tamper
 * step: no tamper fail is expected, on any layout (the spec: capture anomalies never fail the
 * check alone; on Niger's paper card stamps, handwriting and wear are normal).
 *
 *   npx tsx packages/vision/scripts/eval/bona-fide-hazards.ts [fixturesDir] [--half tuning]
 *       [--drawn N] [--synth N] [--draw TAG] [--dense-print] [--paper-only] [--read] [--save DIR] [--sources name,name]
 *       [--dump FILE] [--conditions dim,bright]
 *
 * Sources as in generated-attacks.ts (the half's fixture pages, N paper cards and N colour
 * cards, `--synth N` synthetic documents), each captured by the same phone capture; glare, blur,
 * dim light and overexposure are laid on the captured picture, the marks on the document before
 * it. `--read` runs the reading step on each upload (as the analyzer does) instead of giving the
 * detectors the truth.
 * `--draw TAG` takes a fresh draw instead of the half's sources (generated-attacks.ts);
 * `--sources` keeps the sources whose name contains one of the given parts. `--dump FILE` writes
 * one JSON row per image (source, layout, condition, signs and `detectTamper`'s raw measures), so
 * that a rule over the measures can be replayed without running the step again.
 */

const CONDITIONS: Hazard[][] = [
  ['glare'],
  ['blur'],
  ['marks'],
  ['marks', 'glare', 'blur'],
  ['dim'],
  ['bright'],
];

export async function evaluateHazards(
  fixturesDir: string,
  half: Half,
  opts: {
    drawn: number;
    synth: number;
    draw?: string;
    /** With `draw`: fine-line print over the drawn pages (corpus/fresh-sources.ts). */
    densePrint?: boolean;
    paperOnly: boolean;
    read: boolean;
    save?: string;
    sources?: string[];
    dump?: string;
    /** Only these conditions (labels as printed, e.g. `dim`, `marks+glare+blur`); all when absent. */
    conditions?: string[];
  },
): Promise<void> {
  if (opts.densePrint && !opts.draw) throw new Error('--dense-print needs --draw (a fresh draw)');
  let sources: GenuineSource[] = await corpusSources(fixturesDir, half, opts);
  if (opts.paperOnly) sources = sources.filter((s) => s.layout === 'niger_paper_card');
  sources = sources.filter((s) => sourcePicked(s.name, opts.sources));
  if (opts.save) await mkdir(opts.save, { recursive: true });
  const tally = new Map<string, { n: number; fail: number; paperN: number; paperFail: number }>();
  const rows: string[][] = [];
  const dumped: { source: string; layout: string; condition: string; signals: unknown; measures: unknown }[] =
    [];
  const conditions = CONDITIONS.filter((c) => !opts.conditions || opts.conditions.includes(c.join('+')));
  for (const source of sources) {
    for (const condition of conditions) {
      const label = condition.join('+');
      const rng = seededRng(seedOf(`${source.name}:hazard:${label}`));
      const page = condition.includes('marks') ? await addMarks(source, rng) : source.image;
      const capture = await phoneCaptureMapped(page, rng);
      let bytes = capture.bytes;
      if (condition.some((h) => h !== 'marks')) {
        let img = await decodeRgb(bytes);
        if (condition.includes('glare')) {
          const corners = [capture.map(0, 0), capture.map(source.image.width, source.image.height)] as const;
          const [x0, y0] = corners[0];
          const [x1, y1] = corners[1];
          img = addGlare(img, rng, { x: x0, y: y0, w: x1 - x0, h: y1 - y0 });
        }
        if (condition.includes('blur')) img = await addBlur(img, rng);
        if (condition.includes('dim')) img = await addLowLight(img, rng);
        if (condition.includes('bright')) img = addOverexposure(img, rng);
        bytes = await encodeJpeg(img, 85);
      }
      if (opts.save) await writeFile(join(opts.save, `${fileSlug(source.name)}--${label}.jpg`), bytes);
      const measures: Record<string, number> = {};
      const { signals } = opts.read
        ? await analyzeUpload(bytes, source.layout, measures)
        : await analyzeWithTruth(bytes, source, capture.map, measures);
      const t = tally.get(label) ?? { n: 0, fail: 0, paperN: 0, paperFail: 0 };
      const failed = failsCheck(signals);
      t.n++;
      if (failed) t.fail++;
      if (source.layout === 'niger_paper_card') {
        t.paperN++;
        if (failed) t.paperFail++;
      }
      tally.set(label, t);
      if (opts.dump)
        dumped.push({ source: source.name, layout: source.layout, condition: label, signals, measures });
      // The page's colour peak, measured only when the grey spread alone would fail (page-colour.ts).
      const peak = measures['front.page_peak'];
      const signs = describeSignals(signals) + (peak === undefined ? '' : `; page peak ${peak.toFixed(3)}`);
      if (signals.length) rows.push([source.name, label, failed ? 'FAIL' : '', signs]);
    }
  }
  console.log(
    `\n### Bona fide documents under glare, blur, marks, dim light and overexposure, ${opts.draw ? `fresh draw "${opts.draw}"${opts.densePrint ? ', dense security print' : ''}` : `${half} half`} (${sources.length} sources)\n`,
  );
  printTable(
    ['condition', 'tamper fail', 'paper cards failed'],
    [...tally].map(([label, t]) => [
      label,
      `${t.fail}/${t.n} (${pct(t.fail, t.n)})`,
      `${t.paperFail}/${t.paperN} (${pct(t.paperFail, t.paperN)})`,
    ]),
  );
  console.log('');
  printTable(['source', 'condition', 'fail', 'signs'], rows);
  if (opts.dump) await writeFile(opts.dump, JSON.stringify(dumped));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const flagValues = new Set(
    ['--half', '--drawn', '--synth', '--draw', '--save', '--sources', '--dump', '--conditions'].map(value),
  );
  const dir = resolve(
    args.find((a) => !a.startsWith('--') && !flagValues.has(a)) ??
      process.env.FIXTURES_DIR ??
      '../shared/fixtures',
  );
  const half = (value('--half') ?? 'tuning') as Half;
  const save = value('--save');
  const draw = value('--draw');
  const picked = value('--sources')?.split(',');
  const dump = value('--dump');
  const conditions = value('--conditions')?.split(',');
  await evaluateHazards(dir, half, {
    drawn: Number(value('--drawn') ?? 6),
    synth: Number(value('--synth') ?? 0),
    ...(draw ? { draw } : {}),
    densePrint: args.includes('--dense-print'),
    paperOnly: args.includes('--paper-only'),
    read: args.includes('--read'),
    ...(save ? { save } : {}),
    ...(picked ? { sources: picked } : {}),
    ...(dump ? { dump: resolve(dump) } : {}),
    ...(conditions ? { conditions } : {}),
  });
}
