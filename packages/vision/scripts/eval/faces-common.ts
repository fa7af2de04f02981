import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type NormalizedImage, normalizeImage } from '../../src/image/normalize.ts';

/** One entry of the fixture set's truth.json (see the fixture MANIFEST.md). */
export interface FixtureTruth {
  mrz: string[] | null;
  person: string | null;
  kind: string;
  attack?: string;
}

export async function readTruth(fixturesDir: string): Promise<Record<string, FixtureTruth>> {
  return JSON.parse(await readFile(join(fixturesDir, 'truth.json'), 'utf8'));
}

export async function loadFixtureImage(fixturesDir: string, file: string): Promise<NormalizedImage> {
  return normalizeImage(new Uint8Array(await readFile(join(fixturesDir, file))));
}

export function pct(n: number, d: number): string {
  return d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return Number.NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Prints rows as an aligned text table (Markdown-compatible). */
export function printTable(header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of cells.slice(1)) console.log(line(r));
}
