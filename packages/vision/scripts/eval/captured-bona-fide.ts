import { pathToFileURL } from 'node:url';
import type { TamperSignal } from '@idv/core';
import { normalizeImage } from '../../src/image/normalize.ts';
import { readDocument } from '../../src/read-document.ts';
import { generateDocument } from '../synth/index.ts';
import { detectOnReading } from './corpus/analyze.ts';
import { describeSignals } from './corpus/signal-text.ts';
import { printTable } from './faces-common.ts';

/**
 * Bona fide synthetic documents photographed by the reading benchmark's own camera (uneven focus
 * and light, synth/capture.ts), read by the reading step and judged by the tamper step with and
 * without one switchable cue: how many genuine captures each sign type flags, and what the cue
 * adds. The cue the typed-text cue false-alarmed on (docs/decisions.md, issue 14) is the
 * default: `IDV_TAMPER_VALUE_WEIGHT`.
 *
 *   npx tsx packages/vision/scripts/eval/captured-bona-fide.ts [--split tuning|heldout] [--count N]
 *       [--seed FIRST] [--cue NAME]
 *
 * `--split`: the reading benchmark's layouts of that split; `--seed`: the first seed drawn
 * (paper cards are skipped: the field cues never judge them).
 */

export async function capturedBonaFide(opts: {
  split: 'tuning' | 'heldout';
  count: number;
  seed: number;
  cue: string;
}) {
  const variable = `IDV_TAMPER_${opts.cue}`;
  const flagged = new Map<string, [number, number]>();
  const rows: string[][] = [];
  let n = 0;
  let judged = 0;
  for (let seed = opts.seed; n < opts.count; seed++) {
    const doc = await generateDocument(seed, { split: opts.split });
    if (doc.truth.kind === 'niger_paper') continue;
    n++;
    const bytes = new Uint8Array(doc.image);
    const front = await normalizeImage(bytes);
    const reading = await readDocument({ front });
    const before = process.env[variable];
    process.env[variable] = '0';
    const { signals: off } = await detectOnReading(front, reading, doc.truth.documentLayout);
    if (before === undefined) delete process.env[variable];
    else process.env[variable] = before;
    const measures: Record<string, number> = {};
    const { signals: on } = await detectOnReading(front, reading, doc.truth.documentLayout, measures);
    // Captures where the weight cue could judge: four or more values with a weight measured.
    const weighed = Object.keys(measures).filter(
      (k) => k.endsWith('.weight') && !k.includes('.mrz') && !k.includes('.unparsed'),
    );
    if (weighed.length >= 4) judged++;
    const types = (signals: TamperSignal[]) => new Set(signals.map((s) => s.type));
    for (const [i, signals] of [off, on].entries())
      for (const type of types(signals)) {
        const count = flagged.get(type) ?? [0, 0];
        count[i]!++;
        flagged.set(type, count);
      }
    if (
      on.length !== off.length ||
      on.some((s, i) => s.type !== off[i]?.type || s.severity !== off[i]?.severity)
    )
      rows.push([`${seed}-${doc.truth.layouts[0]}`, describeSignals(off, '—'), describeSignals(on, '—')]);
  }
  console.log(
    `\n${n} bona fide captures (${opts.split} layouts, seeds from ${opts.seed}), ${variable}=0 against on`,
  );
  // The count the weight cue needs; another cue's run has no use for it.
  if (opts.cue === 'VALUE_WEIGHT')
    console.log(`(${judged} with four or more values whose weight was measured)`);
  console.log('');
  printTable(
    ['sign type', 'flagged, cue off', 'flagged, cue on'],
    [...flagged].map(([type, [off, on]]) => [type, `${off}/${n}`, `${on}/${n}`]),
  );
  console.log('\nCaptures whose signs the cue changed:\n');
  printTable(['document', 'cue off', 'cue on'], rows);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const value = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  await capturedBonaFide({
    split: (value('--split') ?? 'tuning') as 'tuning' | 'heldout',
    count: Number(value('--count') ?? 30),
    seed: Number(value('--seed') ?? 6000),
    cue: value('--cue') ?? 'VALUE_WEIGHT',
  });
}
