/**
 * Reading figures shared by the fixture and the synthetic evaluations: MRZ exact, per-line
 * exact, character error rate, printed-field comparison, medians, and the table printer.
 */

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
