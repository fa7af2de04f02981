import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

/**
 * The one split of the shared fixture folder into a tuning half and a holdout half.
 *
 * Rule (fixed on 2026-11-23, never to be changed for convenience):
 * 1. Every file gets a group key, so that near-copies never straddle the halves:
 *    - `mrz_lines/<stem>-<n>.tif`: the stem (all lines of one document together);
 *    - a file whose truth names a `person`: that label (every photo of one person, and every
 *      specimen of one holder, stays on one side);
 *    - else a file whose truth has an MRZ: the MRZ lines joined (the same specimen scanned twice);
 *    - else the file's relative path.
 * 2. half = holdout when the first byte of SHA-256("idv-fixture-split-v1:" + group key) is odd,
 *    tuning when it is even.
 *
 * Thresholds, calibrations and any other fitted value may look at the tuning half only; the
 * figures that are reported as accuracy come from the holdout half (and from generated sets).
 */

export type Half = 'tuning' | 'holdout';

export interface FixtureTruth {
  kind: string;
  mrz: string[] | null;
  person?: string | null;
  attack?: string;
  mrz_check_digits_valid?: boolean;
  doc_quad?: [number, number][];
}

const SALT = 'idv-fixture-split-v1:';

/** The group a fixture file belongs to (see the rule above). */
export function fixtureGroup(file: string, truth: FixtureTruth): string {
  if (file.startsWith('mrz_lines/')) return `mrz_lines:${basename(file).replace(/-\d+\.tif$/i, '')}`;
  if (truth.person) return `person:${truth.person}`;
  if (truth.mrz && truth.mrz.length > 0) return `mrz:${truth.mrz.join('\n')}`;
  return `file:${file}`;
}

/** Which half a fixture file is in. */
export function fixtureHalf(file: string, truth: FixtureTruth): Half {
  const digest = createHash('sha256')
    .update(SALT + fixtureGroup(file, truth))
    .digest();
  return (digest[0]! & 1) === 1 ? 'holdout' : 'tuning';
}

/** The fixture folder's truth, each entry tagged with its half. */
export async function loadSplitTruth(
  fixturesDir: string,
): Promise<{ file: string; truth: FixtureTruth; half: Half }[]> {
  const truth = JSON.parse(await readFile(join(fixturesDir, 'truth.json'), 'utf8')) as Record<
    string,
    FixtureTruth
  >;
  return Object.entries(truth)
    .map(([file, t]) => ({ file, truth: t, half: fixtureHalf(file, t) }))
    .sort((a, b) => a.file.localeCompare(b.file));
}
