import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMrz } from '@idv/core';
import { normalizeImage } from '../../src/image/normalize.ts';
import { readDocument, warmUp } from '../../src/read-document.ts';
import { startProfile, stopProfile } from '../../src/runtime/profile.ts';
import { corpus, generateDocument, type Split } from '../synth/index.ts';
import type { SynthTruth } from '../synth/truth.ts';
import {
  type MrzScore,
  median,
  pct,
  printTable,
  type RecogniserWork,
  recogniserWork,
  sameValue,
  scoreMrz,
  workSummary,
} from './reading-metrics.ts';

/**
 * Reading on the synthetic benchmark (scripts/synth), generated on the fly from its seeds:
 * tuning layouts and held-out layouts reported apart, per document kind. A card is read as the
 * service receives it: front and back as two images, or both sides in one photo (composite).
 *
 * Usage: npx tsx packages/vision/scripts/eval/synth-reading.ts [--synth=200] [--seed=1]
 *        [--split=all|tuning|heldout] [--only=turned-90|turned-180|composite|scan|small-photo]
 *        [--minutes=M] [--verbose] [--shard=k/n --save=rows-k.json] [--merge=rows-0.json,...]
 *        [--docs=3,17,...] [--filler-glyph] [--k-names]
 * `--docs` reads only the documents of these corpus indexes (each document depends on its seed
 * and index alone), skipping the others before generation: a change re-measured on the documents
 * an earlier run listed (a `--only` run's `#index`es) without generating the whole corpus again.
 * `--only` reads only the documents generated under one capture condition (the same seeds as a
 * full run, the others skipped after generation), to measure one weakness on enough documents.
 * Saved rows hold the reading and the truth of every MRZ, and misses are counted by class
 * (missClass) so that a change is measured on the class it targets.
 * Shards: n processes each read every n-th document (index k modulo n) and save their rows; the
 * merge prints the one table of the run (a loaded machine gives each process its share). In a
 * merge a later file's row replaces an earlier one of the same document (a `--docs` re-run).
 * Every run also counts the MRZs its corrector repaired (exact or wrong) and the "false valid"
 * ones: wrong, yet every check digit holds (repairSummary).
 */

/** The printed fields scored (the spec's "clean reading" of a card needs all four). */
export const SCORED_FIELDS = [
  'surname',
  'given_names',
  'date_of_birth',
  'document_number',
  'date_of_issue',
] as const;

interface Row {
  /** The document's corpus index (absent in files saved before it was recorded). */
  index?: number;
  kind: string;
  layout: string;
  heldOut: boolean;
  level: string;
  mrz: MrzScore | null;
  invented: boolean;
  typeOk: boolean;
  /** Per scored field: read right; `wrong` when a value was returned that is not the truth's. */
  fields: { field: string; ok: boolean; wrong?: boolean }[];
  ms: number;
  /** Capture conditions the MRZ is hard to find in (see conditionsOf). */
  conditions: string[];
  work: RecogniserWork;
  mrzMs: number;
  /** The MRZ lines returned and the truth's (kept in saved rows, to look at the misses again). */
  got: string[] | null;
  truth: string[] | null;
  /** Why the MRZ was missed (null when exact or when the document has none). */
  miss: MissClass | null;
  /** The MRZ returned was changed by its corrector (the reading's `corrected`: check-digit repair). */
  repaired?: boolean;
  /** The MRZ returned has every check digit holding (mrz_checksum would pass on it). */
  checksPass?: boolean;
  /** Every check-digit repair made while reading (profile decisions, mrz/check-repair.ts). */
  repairs?: string[];
}

/**
 * Whether `got` differs from `truth` at a position a check digit covers (its data or the digit
 * itself). A false valid wrong only elsewhere (a name letter, the sex) is a misread no check
 * digit can see; one wrong under a check digit passed that check wrongly: a misread compensated,
 * by chance or by a repair.
 */
export function wrongUnderCheck(got: string[] | null, truth: string[]): boolean {
  const p = parseMrz(truth);
  if (!got || !p) return false;
  return p.checks.some((c) =>
    [...c.ranges, { line: c.line, start: c.checkAt, end: c.checkAt + 1 }].some((r) =>
      [...truth[r.line]!.slice(r.start, r.end)].some((ch, i) => got[r.line]?.[r.start + i] !== ch),
    ),
  );
}

/**
 * An MRZ whose every check digit holds, at the right lengths in the MRZ alphabet: what
 * mrz_checksum passes. Such an MRZ that is not the truth's ("false valid") is the worst reading
 * the service can return: wrong identity data vouched for by its own check digits.
 */
export function checksPass(lines: string[] | null): boolean {
  const p = lines ? parseMrz(lines) : null;
  return !!p && p.lengthsValid && !p.invalidCharacters && p.checks.every((c) => c.valid);
}

/**
 * What went wrong on an MRZ miss, the first that applies: none returned; a block of another
 * format (line count or line length unlike the truth's); lines shorter than the truth's
 * (characters lost); else the right shape with wrong characters.
 */
export type MissClass = 'not found' | 'wrong format' | 'short lines' | 'wrong chars';
const MISS_CLASSES: MissClass[] = ['not found', 'wrong format', 'short lines', 'wrong chars'];

export function missClass(got: string[] | null, truth: string[]): MissClass | null {
  if (!got) return 'not found';
  if (got.length === truth.length && got.every((l, i) => l === truth[i])) return null;
  if (got.length !== truth.length || got.some((l, i) => l.length > truth[i]!.length)) return 'wrong format';
  if (got.some((l, i) => l.length < truth[i]!.length)) return 'short lines';
  return 'wrong chars';
}

/** `--only` keys for the conditions below. */
export const CONDITION_KEYS: Record<string, string> = {
  'turned-90': 'turned 90/270',
  'turned-180': 'turned 180',
  composite: 'composite',
  scan: 'small scan',
  'small-photo': 'small photo (< 500 px)',
};

/** Conditions reported apart: quarter and half turns, both sides in one photo, small scans and photos. */
const CONDITIONS = ['turned 90/270', 'turned 180', 'composite', 'small scan', 'small photo (< 500 px)'];

function conditionsOf(captures: (SynthTruth['capture'] | undefined)[], composite: boolean): string[] {
  const cs = captures.filter((c): c is NonNullable<SynthTruth['capture']> => !!c);
  const out: string[] = [];
  if (cs.some((c) => c.quarterTurns % 2 === 1)) out.push('turned 90/270');
  if (cs.some((c) => c.quarterTurns === 2)) out.push('turned 180');
  if (composite) out.push('composite');
  if (cs.some((c) => c.scan)) out.push('small scan');
  else if (cs.some((c) => c.docWidth < 500)) out.push('small photo (< 500 px)');
  return out;
}

function kindLabel(t: SynthTruth, composite: boolean): string {
  return t.kind === 'sahel_card' && composite ? 'sahel_card (composite)' : t.kind;
}

export interface SynthReadingOptions {
  count?: number;
  seed?: number;
  split?: Split;
  verbose?: boolean;
  minutes?: number;
  /** Read only the documents whose index is `k` modulo `n` (several processes share a run). */
  shard?: { k: number; n: number };
  /** Write the scored rows to this JSON file (to merge the shards of one run). */
  save?: string;
  /** Summarise the rows saved by the shards of one run instead of reading documents. */
  merge?: string[];
  /** Read only the documents captured under this condition (a CONDITION_KEYS key). */
  only?: string;
  /** Read only the documents of these corpus indexes (skipped before generation). */
  docs?: number[];
  /**
   * The MRZ fillers drawn in other printers' shapes (synth/filler-glyph.ts), to measure fillers
   * read as K; off by default, so that the benchmark's figures stay comparable.
   */
  fillerGlyph?: boolean;
  /** Names drawn from those holding a K (a genuine K must stay a K). */
  kNames?: boolean;
}

interface SavedRows {
  rows: Row[];
  stopped: boolean;
  /** The corpus seed the shard read (absent in files saved before it was recorded). */
  seed?: number;
}

export async function evaluateSynthReading(opts: SynthReadingOptions = {}): Promise<void> {
  const count = opts.count ?? 500;
  const { rows, stopped, seed } = opts.merge
    ? await mergeRows(opts.merge)
    : { ...(await readRows(opts, count)), seed: opts.seed ?? 1 };
  if (opts.save) await writeFile(opts.save, JSON.stringify({ rows, stopped, seed } satisfies SavedRows));
  // A merge reports the seed its shards recorded, not the command line's default.
  summarizeRows(rows, stopped, count, { ...opts, seed: opts.seed ?? seed ?? 1 });
}

async function mergeRows(files: string[]): Promise<SavedRows> {
  const parts = await Promise.all(files.map(async (f) => JSON.parse(await readFile(f, 'utf8')) as SavedRows));
  const seeds = [...new Set(parts.map((p) => p.seed))];
  if (seeds.length > 1) throw new Error(`--merge: the shards read different seeds (${seeds.join(', ')})`);
  // A row of a later file replaces the earlier row of the same document: a `--docs` re-run of a
  // change merged over the full run it re-measures (documents the change cannot alter kept).
  const byIndex = new Map<number, Row>();
  const unindexed: Row[] = [];
  for (const r of parts.flatMap((p) => p.rows)) {
    if (r.index === undefined) unindexed.push(r);
    else byIndex.set(r.index, r);
  }
  const rows = [...unindexed, ...[...byIndex.values()].sort((a, b) => a.index! - b.index!)];
  return { rows, stopped: parts.some((p) => p.stopped), seed: seeds[0] };
}

async function readRows(opts: SynthReadingOptions, count: number): Promise<SavedRows> {
  await warmUp();
  const rows: Row[] = [];
  const started = performance.now();
  let stopped = false;
  for (const item of corpus(count, opts.seed ?? 1, opts.split ?? 'all')) {
    if (opts.shard && item.index % opts.shard.n !== opts.shard.k) continue;
    if (opts.docs && !opts.docs.includes(item.index)) continue;
    // A time limit (on a shared machine the whole benchmark may not fit): the first documents
    // of the corpus are a fair sample of it, so stopping early keeps the figures unbiased.
    if (opts.minutes && performance.now() - started > opts.minutes * 60_000) {
      stopped = true;
      break;
    }
    const doc = await generateDocument(item.seed, {
      ...item.options,
      ...(opts.fillerGlyph ? { fillerGlyph: true } : {}),
      ...(opts.kNames ? { kNames: true } : {}),
    });
    const t = doc.truth;
    const conditions = conditionsOf([t.capture, doc.back?.truth.capture], item.options.composite ?? false);
    if (opts.only && !conditions.includes(CONDITION_KEYS[opts.only] ?? opts.only)) continue;
    const start = performance.now();
    const front = await normalizeImage(new Uint8Array(doc.image));
    const back = doc.back ? await normalizeImage(new Uint8Array(doc.back.image)) : undefined;
    const cpu0 = process.cpuUsage();
    startProfile();
    const reading = await readDocument({ front, back });
    const events = stopProfile();
    const work = recogniserWork(events, process.cpuUsage(cpu0));
    const ms = performance.now() - start;
    const truthMrz = t.mrz ?? doc.back?.truth.mrz ?? null;
    const got = reading.mrz?.lines ?? null;
    const printed = { ...t.printed, ...(doc.back?.truth.printed ?? {}) } as Record<
      string,
      string | undefined
    >;
    const fields = SCORED_FIELDS.filter((f) => printed[f] !== undefined).map((f) => {
      const ok = sameValue(f, reading.printed[f], printed[f]!);
      return { field: f, ok, wrong: !ok && reading.printed[f] !== null };
    });
    const row: Row = {
      index: item.index,
      kind: kindLabel(t, item.options.composite ?? false),
      layout: [...t.layouts, ...(doc.back?.truth.layouts ?? [])].join('+'),
      heldOut: t.heldOut || (doc.back?.truth.heldOut ?? false),
      level: item.options.level ?? '?',
      mrz: truthMrz ? scoreMrz(got, truthMrz) : null,
      invented: !truthMrz && got !== null,
      typeOk: reading.document.type === t.documentType,
      fields,
      ms,
      conditions,
      work,
      mrzMs: reading.timings.mrz_ms ?? 0,
      got,
      truth: truthMrz,
      miss: truthMrz ? missClass(got, truthMrz) : null,
      repaired: reading.mrz?.corrected ?? false,
      checksPass: checksPass(got),
      repairs: events.filter((e) => e.kind === 'decision' && e.name === 'mrz-repair').map((e) => e.detail),
    };
    rows.push(row);
    if (opts.verbose) {
      const bad = row.fields
        .filter((f) => !f.ok)
        .map(
          (f) =>
            `${f.field}=${JSON.stringify(reading.printed[f.field as 'surname'])}≠${JSON.stringify(printed[f.field])}`,
        );
      const marks = `${row.repaired ? ' [repaired]' : ''}${falseValid(row) ? ` [FALSE VALID, ${falseValidKind(row)}]` : ''}`;
      console.log(
        `${row.mrz ? (row.mrz.exact ? 'OK ' : 'ERR') : row.invented ? 'INV' : '   '} #${item.index} ${row.layout} ${row.level}${row.conditions.map((c) => ` [${c}]`).join('')}${marks} ${Math.round(ms)}ms rec=${work.ocrRec}+${work.mrzModel} cpu=${Math.round(work.cpuMs)}ms${work.cascade.map(([d]) => ` [${d}]`).join('')} type=${reading.document.type}${row.typeOk ? '' : '(!)'} ${bad.join(' ')}`,
      );
      if (row.mrz && !row.mrz.exact)
        console.log(`    ${row.miss}: got   ${JSON.stringify(got)}\n    truth ${JSON.stringify(truthMrz)}`);
      if (row.repairs!.length) console.log(`    repairs: ${row.repairs!.join(' | ')}`);
    }
  }
  return { rows, stopped };
}

/**
 * Where a false valid is wrong: in another format than the truth's (a passport's rows read as a
 * card's shorter lines, whose own checks hold), under a check digit (a check passed wrongly: a
 * misread compensated, by chance or by a repair), or only where no check digit reaches.
 */
const FALSE_VALID_KINDS = ['other format', 'under a check digit', 'unchecked only'] as const;
function falseValidKind(r: Row): (typeof FALSE_VALID_KINDS)[number] {
  if (r.miss === 'wrong format' || r.miss === 'short lines') return 'other format';
  return wrongUnderCheck(r.got, r.truth!) ? 'under a check digit' : 'unchecked only';
}

/** A wrong MRZ returned with every check digit holding (on a document that has an MRZ). */
function falseValid(r: Row): boolean {
  return !!r.mrz && !r.mrz.exact && r.checksPass === true;
}

/**
 * Repairs and false valids of a run: how many MRZs returned were changed by their corrector, how
 * many of those are exact, and how many MRZs returned pass every check digit yet are wrong.
 */
function repairSummary(rows: Row[]): string {
  const withMrz = rows.filter((r) => r.mrz && r.got);
  const repaired = withMrz.filter((r) => r.repaired);
  const exact = repaired.filter((r) => r.mrz!.exact).length;
  const fv = withMrz.filter(falseValid);
  const repairedFv = fv.filter((r) => r.repaired).length;
  const kinds = FALSE_VALID_KINDS.map((k) => `${fv.filter((r) => falseValidKind(r) === k).length} ${k}`);
  return (
    `MRZ repaired (returned MRZ corrected): ${repaired.length}/${withMrz.length} returned, ` +
    `${exact} exact, ${repaired.length - exact} wrong. ` +
    `False valid (every check digit holds, MRZ wrong): ${fv.length}/${withMrz.length} returned ` +
    `(${repairedFv} of them repaired; wrong: ${kinds.join(', ')})${fv.length ? `: #${fv.map((r) => r.index).join(', #')}` : ''}. ` +
    `Check digits failing on a wrong MRZ: ${withMrz.filter((r) => !r.mrz!.exact && !r.checksPass).length}.`
  );
}

function summarizeRows(rows: Row[], stopped: boolean, count: number, opts: SynthReadingOptions): void {
  const header = [
    'group',
    'docs',
    'MRZ exact',
    'MRZ lines exact',
    'MRZ CER',
    'MRZ invented',
    'doc type',
    'surname',
    'given names',
    'birth date',
    'number',
    'issue date',
    'median ms',
  ];
  const table = [header];
  const summarize = (label: string, rs: Row[]) => {
    if (rs.length === 0) return;
    const withMrz = rs.filter((r) => r.mrz);
    const noMrz = rs.filter((r) => !r.mrz);
    const errs = withMrz.reduce((s, r) => s + r.mrz!.errors, 0);
    const chars = withMrz.reduce((s, r) => s + r.mrz!.chars, 0);
    const field = (f: string) => {
      const fs = rs.flatMap((r) => r.fields.filter((x) => x.field === f));
      return pct(fs.filter((x) => x.ok).length, fs.length);
    };
    table.push([
      label,
      String(rs.length),
      pct(withMrz.filter((r) => r.mrz!.exact).length, withMrz.length),
      pct(
        withMrz.reduce((s, r) => s + r.mrz!.linesExact, 0),
        withMrz.reduce((s, r) => s + r.mrz!.lines, 0),
      ),
      chars ? `${((100 * errs) / chars).toFixed(2)}%` : '—',
      `${noMrz.filter((r) => r.invented).length}/${noMrz.length}`,
      pct(rs.filter((r) => r.typeOk).length, rs.length),
      field('surname'),
      field('given_names'),
      field('date_of_birth'),
      field('document_number'),
      field('date_of_issue'),
      median(rs.map((r) => r.ms)).toFixed(0),
    ]);
  };
  for (const held of [false, true]) {
    const part = rows.filter((r) => r.heldOut === held);
    const name = held ? 'held-out' : 'tuning';
    for (const k of [...new Set(part.map((r) => r.kind))].sort())
      summarize(
        `${name} ${k}`,
        part.filter((r) => r.kind === k),
      );
    summarize(`${name} all`, part);
  }
  for (const level of ['clean', 'mild', 'medium', 'hard'])
    summarize(
      `all, ${level} capture`,
      rows.filter((r) => r.level === level),
    );
  for (const c of CONDITIONS)
    summarize(
      `all, ${c}`,
      rows.filter((r) => r.conditions.includes(c)),
    );
  summarize('all', rows);
  printTable(table);
  // A wrong printed value is worse than none: it makes the printed/MRZ consistency check fail a
  // genuine document, where an absent one leaves the check to the fields that were read.
  const wrong = (f: string) => {
    const fs = rows.flatMap((r) => r.fields.filter((x) => x.field === f));
    return `${f} ${fs.filter((x) => x.wrong).length}/${fs.length}`;
  };
  console.log(
    `\nPrinted fields read wrong (a value returned, not the truth's): ${SCORED_FIELDS.map(wrong).join(', ')}`,
  );
  console.log(`\n${repairSummary(rows)}`);
  const misses = rows.filter((r) => r.miss);
  console.log(
    `\nMRZ misses by class (${misses.length}): ${MISS_CLASSES.map((c) => `${c} ${misses.filter((r) => r.miss === c).length}`).join(', ')}`,
  );
  for (const held of [false, true]) {
    const ms = misses.filter((r) => r.heldOut === held);
    console.log(
      `  ${held ? 'held-out' : 'tuning'}: ${MISS_CLASSES.map((c) => `${c} ${ms.filter((r) => r.miss === c).length}`).join(', ')}`,
    );
  }
  console.log(
    `\n${workSummary(
      rows.map((r) => r.work),
      rows.map((r) => r.mrzMs),
    )}`,
  );
  console.log(
    `\nSynthetic benchmark: ${rows.length} documents (seed ${opts.seed ?? 1}), generated on the fly by packages/vision/scripts/synth.` +
      (opts.merge
        ? `\nMerged from ${opts.merge.length} shard files${stopped ? ', each stopped at its time limit' : ''}.`
        : stopped
          ? `\nStopped at the time limit (${opts.minutes} min): ${rows.length} of the ${count} documents asked for.`
          : '') +
      '\nHeld-out: layouts never looked at while tuning (passport-c, sahel-front-c/back-c, td2-c, niger-paper-c).' +
      '\nMRZ CER: edit distance over truth characters. Invented: an MRZ returned for a document without one (Niger paper card).' +
      '\nFields: the printed value read equals the truth (folded: case, accents); over documents that print it. Time: decode + read, both sides.',
  );
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
  await evaluateSynthReading({
    count: Number(arg('synth') ?? 200),
    seed: arg('seed') ? Number(arg('seed')) : undefined,
    split: (arg('split') ?? 'all') as Split,
    verbose: process.argv.includes('--verbose'),
    minutes: arg('minutes') ? Number(arg('minutes')) : undefined,
    shard: arg('shard')
      ? { k: Number(arg('shard')!.split('/')[0]), n: Number(arg('shard')!.split('/')[1]) }
      : undefined,
    save: arg('save'),
    merge: arg('merge')?.split(','),
    only: arg('only'),
    docs: arg('docs')?.split(',').map(Number),
    fillerGlyph: process.argv.includes('--filler-glyph'),
    kNames: process.argv.includes('--k-names'),
  });
}
