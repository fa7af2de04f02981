import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The bench's figures and their "before": every figure printed is also recorded under a stable
 * name, and shown with its ratio to the same figure in baseline.json (the figures measured before
 * the speed work of issue 17, on this machine). `npm run bench -- --save-baseline` replaces that
 * file with the current run's figures (do it on an idle machine only).
 */

const BASELINE_FILE = join(dirname(fileURLToPath(import.meta.url)), 'baseline.json');

interface Baseline {
  measured: string;
  note: string;
  figures: Record<string, number>;
}

const baseline: Baseline | null = existsSync(BASELINE_FILE)
  ? (JSON.parse(readFileSync(BASELINE_FILE, 'utf8')) as Baseline)
  : null;
const current: Record<string, number> = {};

/** Records a figure and returns it formatted with its ratio to the baseline, e.g. `812 (0.71× of 1143)`. */
export function figure(name: string, value: number, digits = 0): string {
  current[name] = Number(value.toFixed(digits));
  const shown = value.toFixed(digits);
  const before = baseline?.figures[name];
  if (before === undefined || before === 0) return shown;
  return `${shown} (${(value / before).toFixed(2)}× of ${before.toFixed(digits)})`;
}

/** The 1-minute load average, to print beside every timing (the machine is shared). */
export function load(): string {
  return `load ${loadavg()[0]!.toFixed(2)}`;
}

export function saveBaseline(note: string): void {
  const data: Baseline = { measured: new Date().toISOString(), note, figures: current };
  writeFileSync(BASELINE_FILE, `${JSON.stringify(data, null, 2)}\n`);
  console.log(`\nbaseline written: ${BASELINE_FILE}`);
}

export function median(xs: number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}
