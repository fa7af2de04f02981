import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMPARED_FIELDS, type Comparison, compareField, parseMrz } from '@idv/core';
import { normalizeImage } from '../../src/image/normalize.ts';
import { assessSharpness } from '../../src/quality/sharpness.ts';
import { readDocument, warmUp } from '../../src/read-document.ts';
import { startProfile, stopProfile } from '../../src/runtime/profile.ts';
import { fixtureHalf, type Half } from './fixture-split.ts';
import {
  type MrzScore,
  type RecogniserWork,
  recogniserWork,
  scoreMrz,
  workSummary,
} from './reading-metrics.ts';

/**
 * Reading evaluation on a fixture folder with a `truth.json` (format in its MANIFEST.md).
 * Per kind: MRZ exact-read rate (all lines equal to the truth, over images whose truth has an
 * MRZ), check-digit pass rate (reading valid, over images whose printed MRZ is valid), invented
 * MRZ (an MRZ returned where the truth has none), document-type accuracy and time per image.
 *
 * With `half`, only that half of the fixed split (fixture-split.ts) is read: figures on the
 * tuning half measure tuning, the holdout half's are the ones to report.
 *
 * Usage: npx tsx packages/vision/scripts/eval/reading.ts [fixturesDir] [--half=tuning|holdout] [--verbose]
 */

interface Truth {
  kind: string;
  mrz: string[] | null;
  mrz_check_digits_valid?: boolean;
}

/** Kinds that are document photos (faces and spoof crops are the faces engineer's evaluation). */
const DOCUMENT_KINDS = new Set([
  'passport',
  'id_td1',
  'id_td2',
  'id_fra_legacy',
  'visa_mrva',
  'visa_mrvb',
  'id_front',
  'passport_cover',
  'negative_no_mrz',
  'photocopy',
  'screen',
]);

/** Document type the reader should report for each kind (null: not scored). */
function expectedType(t: Truth): 'passport' | 'cni' | 'unknown' | null {
  switch (t.kind) {
    case 'passport':
      return 'passport';
    case 'id_td1':
      return t.mrz ? 'cni' : null;
    case 'negative_no_mrz':
    case 'passport_cover':
      return 'unknown';
    case 'photocopy':
      return t.mrz ? (t.mrz.length === 2 && t.mrz[0]!.length === 44 ? 'passport' : 'cni') : null;
    default:
      // TD2 cards, visas, card fronts: the service has no type for them; not scored.
      return null;
  }
}

interface Row {
  kind: string;
  file: string;
  hasMrz: boolean;
  exact: boolean;
  printedValid: boolean;
  readValid: boolean;
  invented: boolean;
  typeExpected: string | null;
  typeOk: boolean;
  ms: number;
  got: string[] | null;
  truth: string[] | null;
  blurScore: number;
  score: MrzScore | null;
  work: RecogniserWork;
  mrzMs: number;
  /**
   * The printed fields compared with the MRZ, as viz_mrz_consistency does, on images whose MRZ
   * was read exactly and passes its checks: a printed value that differs is one read wrong (the
   * fixtures are consistent documents), one unreadable was not read.
   */
  printed: Partial<Record<(typeof COMPARED_FIELDS)[number], Comparison>> | null;
}

function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

const pct = (n: number, d: number) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(0)}% (${n}/${d})`);

export async function evaluateReading(
  fixturesDir: string,
  opts: { verbose?: boolean; half?: Half } = {},
): Promise<void> {
  const truth = JSON.parse(await readFile(join(fixturesDir, 'truth.json'), 'utf8')) as Record<string, Truth>;
  await warmUp();
  const rows: Row[] = [];
  for (const [file, t] of Object.entries(truth)) {
    if (!DOCUMENT_KINDS.has(t.kind)) continue;
    if (opts.half && fixtureHalf(file, t) !== opts.half) continue;
    const bytes = new Uint8Array(await readFile(join(fixturesDir, file)));
    const start = performance.now();
    const img = await normalizeImage(bytes);
    const blur = assessSharpness(img);
    const cpu0 = process.cpuUsage();
    startProfile();
    const reading = await readDocument({ front: img });
    const work = recogniserWork(stopProfile(), process.cpuUsage(cpu0));
    const ms = performance.now() - start;
    const got = reading.mrz?.lines ?? null;
    const exp = expectedType(t);
    const row: Row = {
      kind: t.kind,
      file,
      hasMrz: t.mrz !== null,
      exact:
        t.mrz !== null && got !== null && got.length === t.mrz.length && got.every((l, i) => l === t.mrz![i]),
      // Visas have no composite digit: parseMrz cannot validate them, so they are not counted.
      printedValid: t.mrz !== null && t.mrz_check_digits_valid === true && !t.kind.startsWith('visa'),
      readValid: got !== null && parseMrz(got)?.valid === true,
      invented: t.mrz === null && got !== null && t.kind !== 'photocopy' && t.kind !== 'id_td1',
      typeExpected: exp,
      typeOk: exp !== null && reading.document.type === exp,
      ms,
      got,
      truth: t.mrz,
      blurScore: blur.score,
      score: t.mrz ? scoreMrz(got, t.mrz) : null,
      work,
      mrzMs: reading.timings.mrz_ms ?? 0,
      printed: null,
    };
    const parsed = row.exact ? parseMrz(got!) : null;
    if (parsed?.valid)
      row.printed = Object.fromEntries(
        COMPARED_FIELDS.map((f) => [f, compareField(f, reading.printed, parsed)]),
      );
    rows.push(row);
    if (opts.verbose) {
      const mark = row.hasMrz ? (row.exact ? 'OK ' : 'ERR') : got ? 'INV' : '   ';
      console.log(
        `${mark} ${file} ${Math.round(ms)}ms rec=${work.ocrRec}+${work.mrzModel} cpu=${Math.round(work.cpuMs)}ms type=${reading.document.type} blur=${blur.score.toFixed(1)} ${JSON.stringify(reading.timings)}`,
      );
      if (row.hasMrz && !row.exact)
        console.log(`    got   ${JSON.stringify(got)}\n    truth ${JSON.stringify(t.mrz)}`);
      if (!row.hasMrz && got) console.log(`    got   ${JSON.stringify(got)}`);
      const differ = COMPARED_FIELDS.filter((f) => row.printed?.[f] === 'differ');
      if (differ.length)
        console.log(
          `    printed differs from the MRZ: ${differ.map((f) => `${f}=${JSON.stringify(reading.printed[f])}`).join(' ')}`,
        );
    }
  }
  const kinds = [...new Set(rows.map((r) => r.kind))].sort();
  const table: string[][] = [
    [
      'kind',
      'images',
      'MRZ exact',
      'MRZ lines exact',
      'MRZ CER',
      'check digits pass',
      'MRZ invented',
      'doc type',
      'median ms',
      'p95 ms',
    ],
  ];
  const summarize = (label: string, rs: Row[]) => {
    const withMrz = rs.filter((r) => r.hasMrz);
    const valid = rs.filter((r) => r.printedValid);
    const noMrz = rs.filter((r) => !r.hasMrz && r.kind !== 'photocopy' && r.kind !== 'id_td1');
    const typed = rs.filter((r) => r.typeExpected !== null);
    table.push([
      label,
      String(rs.length),
      pct(withMrz.filter((r) => r.exact).length, withMrz.length),
      pct(
        withMrz.reduce((n, r) => n + r.score!.linesExact, 0),
        withMrz.reduce((n, r) => n + r.score!.lines, 0),
      ),
      withMrz.length
        ? `${(
            (100 * withMrz.reduce((n, r) => n + r.score!.errors, 0)) /
              withMrz.reduce((n, r) => n + r.score!.chars, 0)
          ).toFixed(2)}%`
        : '—',
      pct(valid.filter((r) => r.readValid).length, valid.length),
      pct(noMrz.filter((r) => r.invented).length, noMrz.length),
      pct(typed.filter((r) => r.typeOk).length, typed.length),
      percentile(
        rs.map((r) => r.ms),
        50,
      ).toFixed(0),
      percentile(
        rs.map((r) => r.ms),
        95,
      ).toFixed(0),
    ]);
  };
  for (const k of kinds)
    summarize(
      k,
      rows.filter((r) => r.kind === k),
    );
  summarize('all', rows);
  const widths = table[0]!.map((_, c) => Math.max(...table.map((r) => r[c]!.length)));
  const fmt = (r: string[]) => `| ${r.map((v, c) => v.padEnd(widths[c]!)).join(' | ')} |`;
  console.log(fmt(table[0]!));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of table.slice(1)) console.log(fmt(r));
  const compared = rows.filter((r) => r.printed);
  console.log(
    `\nPrinted vs MRZ on the ${compared.length} images whose MRZ was read exact and valid (agree/differ/unread): ${COMPARED_FIELDS.map(
      (f) =>
        `${f} ${(['agree', 'differ', 'unreadable'] as const).map((c) => compared.filter((r) => r.printed![f] === c).length).join('/')}`,
    ).join(', ')}`,
  );
  console.log(
    `\n${workSummary(
      rows.map((r) => r.work),
      rows.map((r) => r.mrzMs),
    )}`,
  );
  console.log(
    '\nMRZ exact: all lines equal to the truth, over images whose truth has an MRZ. Check digits pass: reading valid, over images whose printed MRZ is valid.' +
      '\nMRZ invented: an MRZ returned for an image with none (passport cover, payment card, card front). Time: decode + normalise + read, one image.',
  );
}

const isMain = process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const args = process.argv.slice(2);
  const dir =
    args.find((a) => !a.startsWith('--')) ??
    resolve(fileURLToPath(import.meta.url), '../../../../../../shared/fixtures');
  const half = args.find((a) => a.startsWith('--half='))?.slice(7) as Half | undefined;
  await evaluateReading(dir, { verbose: args.includes('--verbose'), half });
}
