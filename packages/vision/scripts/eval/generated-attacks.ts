import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TamperSignal, TamperType } from '@idv/core';
import type { RgbImage } from '../../src/image/raster.ts';
import { TAMPER_SIGNS } from '../../src/tamper/index.ts';
import { analyzeUpload, analyzeWithTruth, failsCheck, layoutOfKind } from './corpus/analyze.ts';
import { ATTACKS, applicable } from './corpus/attacks.ts';
import { cleanDigital } from './corpus/clean-digital.ts';
import { corpusSources, sourcePicked } from './corpus/fresh-sources.ts';
import { type PointMap, phoneCaptureMapped } from './corpus/phone-capture.ts';
import { type Rng, seededRng, seedOf } from './corpus/rng.ts';
import { describeSignals, fileSlug } from './corpus/signal-text.ts';
import type { GenuineSource } from './corpus/types.ts';
import { median, pct, printTable } from './faces-common.ts';
import { type Half, loadSplitTruth } from './fixture-split.ts';

/**
 * Tamper signs on a generated attack corpus and on the real fixtures of one half.
 *
 *   npx tsx packages/vision/scripts/eval/generated-attacks.ts [fixturesDir]
 *       [--half holdout|tuning] [--drawn N] [--synth N] [--read] [--save DIR] [--only kind,kind]
 *       [--generated-only | --fixtures-only] [--dump FILE] [--sources name,name] [--digital]
 *       [--dense-print]
 *
 * The corpus is made on demand from the genuine sources of the chosen half (the fixtures' bona
 * fide documents, N independently drawn Niger paper cards and N synthetic colour cards): each source is captured once as it
 * is (bona fide) and once per attack kind, every image through the same phone capture, all of it
 * seeded by the source's name (same figures on every run, nothing committed). `--synth N` adds N
 * synthetic documents with a portrait (corpus/synth-sources.ts: some print a ghost image, which
 * the fixtures seldom show; 0 by default, so the default figures stay comparable). Thresholds are tuned
 * on `--half tuning`; the figures reported are those of `--half holdout`. The detectors get the
 * truth: field boxes and the document's extent carried through the capture's geometry (no OCR:
 * hundreds of images); `--read` runs the reading step on each image instead, as the analyzer
 * does. The real fixtures always go through the reading step. `--dump FILE` writes one JSON row
 * per image (set, source, kind, signs, and `detectTamper`'s raw `measures`: the copy cues' and
 * the portrait classifier's p(swap), `front.portrait_swap`), to tune how the cues combine and to
 * rank weights without running the step again. `--sources` keeps the generated sources whose
 * name contains one of the given parts (to look again at a few images; `--only none` leaves the
 * attacks out and keeps the bona fide captures). The capture
 * classifier's parts follow IDV_TAMPER_LEARNED (`screen` by default, `review` adds the copy part
 * as a review only, `1` the copy part at full strength);
 * IDV_TAMPER_CAPTURE_MODEL and IDV_TAMPER_CAPTURE_TEMPERATURE measure other weights (a training
 * run's snapshot and the temperature of its log) paired against the committed ones.
 *
 * `--draw TAG` replaces the half's sources by a fresh draw named TAG: `--drawn N` paper and
 * colour cards and `--synth N` synthetic documents of every layout, all seeded by TAG, and no
 * fixture page. A tag nobody has used is out of sample by construction, and it can be as large
 * as the time allows: the large bona fide and attack figures come from such draws.
 *
 * `--digital` (with `--read`) uploads every generated page as a file instead of a phone capture
 * (corpus/clean-digital.ts: PNG or JPEG 80–95, resized), as the public forged-document sets
 * made from templates are: an edit's pixels reach the service untouched by a camera.
 *
 * `--dense-print` (with `--draw`) prints the draw's colour cards and synthetic documents with
 * fine lines over the whole page, as real passports and cards are (synth/security-print.ts); the
 * generator's own backgrounds are sparse, too sparse for the cues that read texture near a field.
 */

type Tally = { n: number; expected: number; fail: number };

/** One image's row of `--dump`. */
interface DumpRow {
  set: 'generated' | 'fixtures';
  source: string;
  layout: string;
  kind: string;
  signals: TamperSignal[];
  measures: Record<string, number>;
}
const dumped: DumpRow[] = [];

export async function evaluateGeneratedAttacks(
  fixturesDir: string,
  half: Half,
  opts: {
    drawn?: number;
    synth?: number;
    draw?: string;
    read?: boolean;
    save?: string;
    only?: string[];
    sources?: string[];
    /** Every image a digital file (clean-digital.ts), not a phone capture: needs `read`. */
    digital?: boolean;
    /** With `draw`: fine-line print over the drawn pages (corpus/fresh-sources.ts). */
    densePrint?: boolean;
  } = {},
): Promise<void> {
  if (opts.digital && !opts.read) throw new Error('--digital needs --read (no truth boxes are mapped)');
  if (opts.densePrint && !opts.draw) throw new Error('--dense-print needs --draw (a fresh draw)');
  const sources = await corpusSources(fixturesDir, half, {
    ...(opts.draw ? { draw: opts.draw } : {}),
    densePrint: opts.densePrint === true,
    drawn: opts.drawn ?? 6,
    synth: opts.synth ?? 0,
  });
  if (opts.save) await mkdir(opts.save, { recursive: true });
  const perAttack = new Map<string, Tally>();
  const bona = { n: 0, fail: 0, paperN: 0, paperFail: 0 };
  const perSign = new Map<TamperType, number>();
  const misses: string[][] = [];
  const times: number[] = [];
  const withPortrait = sources.filter((s) => s.boxes.portrait && s.layout !== 'niger_paper_card');
  for (const [i, source] of sources.entries()) {
    // Left out after the donors are chosen from every source: a run on a few sources makes the
    // same images as the full run.
    if (!sourcePicked(source.name, opts.sources)) continue;
    const rng = seededRng(seedOf(`${source.name}:bona-fide`));
    const { bytes, map } = await captured(source.image, rng, opts.digital);
    if (opts.save) await writeFile(join(opts.save, `${fileSlug(source.name)}--bona-fide.jpg`), bytes);
    const measures: Record<string, number> = {};
    const { signals, ms } = opts.read
      ? await analyzeUpload(bytes, source.layout, measures)
      : await analyzeWithTruth(bytes, source, map, measures);
    times.push(ms);
    dumped.push({
      set: 'generated',
      source: source.name,
      layout: source.layout,
      kind: 'bona-fide',
      signals,
      measures,
    });
    bona.n++;
    if (failsCheck(signals)) bona.fail++;
    if (source.layout === 'niger_paper_card') {
      bona.paperN++;
      if (failsCheck(signals)) bona.paperFail++;
    }
    for (const type of new Set(signals.map((s) => s.type))) perSign.set(type, (perSign.get(type) ?? 0) + 1);
    if (signals.length) misses.push([source.name, 'bona fide', describeSignals(signals, '—')]);
    for (const attack of ATTACKS) {
      if (opts.only && !opts.only.includes(attack.kind)) continue;
      if (!applicable(attack, source)) continue;
      // Portrait swaps on the paper card are not generated: its glued photo is the genuine case.
      if (attack.needs === 'portrait' && source.layout === 'niger_paper_card') continue;
      const donor = pickDonor(withPortrait, source, i);
      if (attack.needs === 'portrait' && !donor) continue;
      const arng = seededRng(seedOf(`${source.name}:${attack.kind}`));
      const forged = await attack.make(source, arng, donor);
      const flat = attack.flatCapture ?? false;
      const capture = await captured(forged, arng, opts.digital, flat);
      const upload = capture.bytes;
      if (opts.save) await writeFile(join(opts.save, `${fileSlug(source.name)}--${attack.kind}.jpg`), upload);
      // A screen recapture moved the document inside its frame: no truth boxes for it.
      const am: Record<string, number> = {};
      const result = opts.read
        ? await analyzeUpload(upload, source.layout, am)
        : await analyzeWithTruth(upload, source, flat ? null : capture.map, am);
      times.push(result.ms);
      dumped.push({
        set: 'generated',
        source: source.name,
        layout: source.layout,
        kind: attack.kind,
        signals: result.signals,
        measures: am,
      });
      const t = perAttack.get(attack.kind) ?? { n: 0, expected: 0, fail: 0 };
      t.n++;
      const caught = result.signals.some((s) => s.type === attack.expected);
      if (caught) t.expected++;
      if (failsCheck(result.signals)) t.fail++;
      perAttack.set(attack.kind, t);
      if (!caught) misses.push([source.name, attack.kind, describeSignals(result.signals, '—')]);
    }
  }
  const drawn = opts.draw
    ? `fresh draw "${opts.draw}"${opts.densePrint ? ', dense security print' : ''}${opts.digital ? ', digital uploads' : ''}`
    : `${half} half`;
  console.log(`\n### Generated corpus, ${drawn} (${sources.length} genuine sources)\n`);
  printAttackTable(
    perAttack,
    ATTACKS.map((a) => [a.kind, a.expected]),
  );
  console.log('');
  printTable(
    ['bona fide captures', 'tamper fail', 'paper cards', 'paper cards failed'],
    [
      [
        bona.n,
        `${bona.fail} (${pct(bona.fail, bona.n)})`,
        bona.paperN,
        `${bona.paperFail} (${pct(bona.paperFail, bona.paperN)})`,
      ],
    ],
  );
  printSignTable(perSign, bona.n);
  console.log('\n#### Misses and bona fide signs\n');
  printTable(['source', 'image', 'signs'], misses);
  console.log(`\nTamper step per image (median): ${median(times)} ms`);
}

/** The fixtures' own attacks and bona fide documents of one half (never the other). */
export async function evaluateFixtureHalf(fixturesDir: string, half: Half): Promise<void> {
  const perAttack = new Map<string, Tally>();
  const perSign = new Map<TamperType, number>();
  const expectedOf: Record<string, string> = {
    grayscale_photocopy: 'photocopy',
    portrait_swap: 'portrait_edge',
    text_inpaint: 'field_overwritten',
    screen_replay: 'photo_of_screen',
  };
  let n = 0;
  let fail = 0;
  const rows: string[][] = [];
  for (const e of await loadSplitTruth(fixturesDir)) {
    if (e.half !== half || !e.file.startsWith('documents/')) continue;
    const bytes = new Uint8Array(await readFile(join(fixturesDir, e.file)));
    const measures: Record<string, number> = {};
    const { signals } = await analyzeUpload(bytes, layoutOfKind(e.truth.kind), measures);
    dumped.push({
      set: 'fixtures',
      source: e.file,
      layout: layoutOfKind(e.truth.kind),
      kind: e.truth.attack ?? 'bona-fide',
      signals,
      measures,
    });
    if (e.truth.attack) {
      const t = perAttack.get(e.truth.attack) ?? { n: 0, expected: 0, fail: 0 };
      t.n++;
      if (signals.some((s) => s.type === expectedOf[e.truth.attack!])) t.expected++;
      if (failsCheck(signals)) t.fail++;
      perAttack.set(e.truth.attack, t);
      rows.push([e.file, e.truth.attack, describeSignals(signals, '—')]);
    } else {
      n++;
      if (failsCheck(signals)) fail++;
      for (const type of new Set(signals.map((s) => s.type))) perSign.set(type, (perSign.get(type) ?? 0) + 1);
      if (signals.length) rows.push([e.file, 'bona fide', describeSignals(signals, '—')]);
    }
  }
  console.log(`\n### Real fixtures, ${half} half\n`);
  printAttackTable(perAttack, Object.entries(expectedOf));
  console.log('');
  printTable(['bona fide documents', 'tamper fail'], [[n, `${fail} (${pct(fail, n)})`]]);
  printSignTable(perSign, n);
  console.log('');
  printTable(['image', 'truth', 'signs'], rows);
}

function printAttackTable(perAttack: Map<string, Tally>, expected: [string, string][]): void {
  const exp = new Map(expected);
  printTable(
    ['attack kind', 'expected sign', 'caught (expected sign) / total', 'tamper check fails'],
    [...perAttack].map(([kind, t]) => [
      kind,
      exp.get(kind) ?? '?',
      `${t.expected}/${t.n} (${pct(t.expected, t.n)})`,
      `${t.fail}/${t.n} (${pct(t.fail, t.n)})`,
    ]),
  );
}

function printSignTable(perSign: Map<TamperType, number>, n: number): void {
  console.log('');
  printTable(
    ['sign type', 'bona fide flagged / total'],
    (Object.keys(TAMPER_SIGNS) as TamperType[]).map((type) => [type, `${perSign.get(type) ?? 0}/${n}`]),
  );
}

/**
 * The upload of a generated page: a phone capture, or with `digital` the page itself exported
 * as a file (PNG or JPEG 80–95, resized: clean-digital.ts), as forged-document sets made from
 * templates are, where an edit's pixels reach the service untouched by a camera. A digital
 * upload's map is not the page's (it is resized): runs with `digital` read their boxes.
 */
async function captured(
  img: RgbImage,
  rng: Rng,
  digital = false,
  flat = false,
): Promise<{ bytes: Uint8Array; map: PointMap }> {
  if (!digital) return phoneCaptureMapped(img, rng, { flat });
  return { bytes: await cleanDigital(img, rng, rng.next() < 0.5 ? 'png' : 'jpeg'), map: (x, y) => [x, y] };
}

function pickDonor(pool: GenuineSource[], source: GenuineSource, i: number): GenuineSource | undefined {
  // Another person: not the same source, nor one printing the same photo.
  const others = pool.filter(
    (s) => s.name !== source.name && (!source.portraitId || s.portraitId !== source.portraitId),
  );
  return others.length ? others[i % others.length] : undefined;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const flagValues = new Set(
    ['--half', '--drawn', '--synth', '--draw', '--save', '--only', '--dump', '--sources'].map(value),
  );
  const dir = resolve(
    args.find((a) => !a.startsWith('--') && !flagValues.has(a)) ??
      process.env.FIXTURES_DIR ??
      '../shared/fixtures',
  );
  const half = (value('--half') ?? 'holdout') as Half;
  const save = value('--save');
  const only = value('--only')?.split(',');
  const picked = value('--sources')?.split(',');
  const draw = value('--draw');
  if (!args.includes('--fixtures-only'))
    await evaluateGeneratedAttacks(dir, half, {
      drawn: Number(value('--drawn') ?? 6),
      synth: Number(value('--synth') ?? 0),
      ...(draw ? { draw } : {}),
      read: args.includes('--read'),
      digital: args.includes('--digital'),
      densePrint: args.includes('--dense-print'),
      ...(save ? { save } : {}),
      ...(only ? { only } : {}),
      ...(picked ? { sources: picked } : {}),
    });
  if (!args.includes('--generated-only')) await evaluateFixtureHalf(dir, half);
  const dump = value('--dump');
  if (dump) await writeFile(dump, JSON.stringify(dumped));
}
