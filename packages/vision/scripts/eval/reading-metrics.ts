/**
 * Reading figures shared by the fixture and the synthetic evaluations: MRZ exact, per-line
 * exact, character error rate, printed-field comparison, medians, and the table printer.
 */

import { decisionCounts, type ProfileEvent } from '../../src/runtime/profile.ts';
import { editDistance } from '../../src/viz/text.ts';

export { editDistance };

export interface MrzScore {
  exact: boolean;
  linesExact: number;
  lines: number;
  /** Edit operations to turn the reading into the truth (a missing line counts all its characters). */
  errors: number;
  chars: number;
}

export function scoreMrz(got: string[] | null, truth: string[]): MrzScore {
  const lines = truth.length;
  const chars = truth.reduce((s, l) => s + l.length, 0);
  if (!got) return { exact: false, linesExact: 0, lines, errors: chars, chars };
  let linesExact = 0;
  let errors = 0;
  truth.forEach((t, i) => {
    const g = got[i] ?? '';
    if (g === t) linesExact++;
    errors += editDistance(g, t);
  });
  // Extra lines read are errors too.
  for (let i = truth.length; i < got.length; i++) errors += got[i]!.length;
  return { exact: linesExact === lines && got.length === lines, linesExact, lines, errors, chars };
}

/** Upper case, no accents, single spaces, apostrophes and hyphens as spaces. */
export function foldValue(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/['’-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function sameValue(field: string, got: string | null | undefined, truth: string): boolean {
  if (!got) return false;
  if (field === 'document_number') return got.replace(/[\s<]/g, '') === truth.replace(/\s/g, '');
  return foldValue(got) === foldValue(truth);
}

export function median(xs: number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)]!;
}

export const pct = (n: number, d: number) => (d === 0 ? '—' : `${((100 * n) / d).toFixed(1)}% (${n}/${d})`);

export function printTable(table: string[][]): void {
  const widths = table[0]!.map((_, c) => Math.max(...table.map((r) => (r[c] ?? '').length)));
  const fmt = (r: string[]) => `| ${r.map((v, c) => v.padEnd(widths[c]!)).join(' | ')} |`;
  console.log(fmt(table[0]!));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of table.slice(1)) console.log(fmt(r));
}

/**
 * Recogniser work of one reading, from its profile (runtime/profile.ts): PP-OCR recognition runs
 * (page lines and MRZ rows) and MRZ model runs, with their summed wall time. The cascade's
 * saving (mrz/read.ts) shows in the PP-OCR runs: the page lines cost the same either way.
 */
export interface RecogniserWork {
  ocrRec: number;
  ocrRecMs: number;
  mrzModel: number;
  mrzModelMs: number;
  /** Process CPU time of the reading (user + system), ms: comparable under a shared machine's load. */
  cpuMs: number;
  /** The MRZ cascade's decisions (stopped sure, stopped by checks, voted: reason), mrz/cascade-stop.ts. */
  cascade: [string, number][];
}

export function recogniserWork(events: ProfileEvent[], cpu: NodeJS.CpuUsage): RecogniserWork {
  const of = (name: string) => events.filter((e) => e.kind === 'model' && e.name === name);
  const sum = (es: ProfileEvent[]) => es.reduce((s, e) => s + e.ms, 0);
  return {
    ocrRec: of('ocr-rec').length,
    ocrRecMs: sum(of('ocr-rec')),
    mrzModel: of('mrz-crnn').length,
    mrzModelMs: sum(of('mrz-crnn')),
    cpuMs: (cpu.user + cpu.system) / 1000,
    cascade: decisionCounts(events, 'mrz-cascade'),
  };
}

/** The cascade's decisions summed over readings, e.g. `stopped sure 50, voted: check digit failing 3`. */
export function cascadeSummary(works: RecogniserWork[]): string {
  const total = new Map<string, number>();
  // Shards written before the cascade was profiled have no decisions.
  for (const w of works) for (const [d, n] of w.cascade ?? []) total.set(d, (total.get(d) ?? 0) + n);
  const sorted = [...total].sort((a, b) => b[1] - a[1]);
  return sorted.length ? sorted.map(([d, n]) => `${d} ${n}`).join(', ') : 'no cascade decision';
}

/** One line of totals: recogniser runs and time per document, and the MRZ step's median. */
export function workSummary(works: RecogniserWork[], mrzMs: number[]): string {
  const n = Math.max(1, works.length);
  const mean = (f: (w: RecogniserWork) => number) => (works.reduce((s, w) => s + f(w), 0) / n).toFixed(1);
  return (
    `Recognisers per document (mean): PP-OCR rec ${mean((w) => w.ocrRec)} runs, ${mean((w) => w.ocrRecMs)} ms; ` +
    `MRZ model ${mean((w) => w.mrzModel)} runs, ${mean((w) => w.mrzModelMs)} ms. ` +
    `Reading CPU median ${median(works.map((w) => w.cpuMs)).toFixed(0)} ms, mean ${mean((w) => w.cpuMs)} ms. ` +
    `MRZ step (mrz_ms) median ${median(mrzMs).toFixed(0)} ms, mean ${(mrzMs.reduce((s, x) => s + x, 0) / Math.max(1, mrzMs.length)).toFixed(0)} ms. ` +
    `Reader: IDV_MRZ_READER=${process.env.IDV_MRZ_READER ?? '(default)'}. ` +
    `MRZ cascade (per candidate block): ${cascadeSummary(works)}.`
  );
}
