import { readFile } from 'node:fs/promises';
import type { TamperSignal } from '@idv/core';
import { LEARNED_COPY, learnedCopyReviewStrength, learnedStrength } from '../../src/tamper/capture-model.ts';
import { copyStrength } from '../../src/tamper/copy-agreement.ts';
import { PAGE_SCALE, photocopyStrength, STRICT_SCALE } from '../../src/tamper/photocopy.ts';
import { speckleStrength } from '../../src/tamper/toner-speckle.ts';
import { printTable } from './faces-common.ts';

/**
 * How the copy cues combine, replayed on a `generated-attacks.ts --dump` file (run it with
 * IDV_TAMPER_COPY_AGREE=1, or IDV_TAMPER_LEARNED=1 IDV_TAMPER_SPECKLE=1, so that every cue was
 * measured):
 *
 *   npx tsx packages/vision/scripts/eval/copy-rule.ts DUMP.json [DUMP.json …]
 *
 * Per image kind, the front's `photocopy` sign under three rules, each from the same measures:
 * the colour spread alone (the default), every cue alone at full strength (IDV_TAMPER_LEARNED=1
 * IDV_TAMPER_SPECKLE=1), and the agreement (copy-agreement.ts, IDV_TAMPER_COPY_AGREE=1). Prints
 * flagged (any severity) and high (a tamper fail) per kind. The front only: the corpus's uploads
 * are single-sided. The last two columns: the sign the run raised, and that sign with the
 * classifier's copy part added at review (LEARNED_COPY_REVIEW, `IDV_TAMPER_LEARNED=review`) for
 * a dump written without it. A `bona-fide-hazards.ts --dump` file is read too (its rows are
 * grouped by condition).
 */

interface Row {
  set?: string;
  kind?: string;
  /** A hazards dump's condition (glare, blur, …) in place of the kind. */
  condition?: string;
  layout: string;
  signals: TamperSignal[];
  measures: Record<string, number>;
}

/** Just under high severity: the paper card's cap (tamper/index.ts). */
const PAPER_CARD_MAX = 0.49;

type Rule = (cues: {
  colour: number | null;
  learned: number | null;
  speckle: number | null;
}) => number | null;
const RULES: [string, Rule][] = [
  ['colour spread alone (default)', (c) => c.colour],
  [
    'each cue alone, full strength',
    (c) => {
      const s = [c.colour, c.learned, c.speckle].filter((v): v is number => v !== null);
      return s.length ? Math.max(...s) : null;
    },
  ],
  ['agreement (IDV_TAMPER_COPY_AGREE=1)', copyStrength],
];

function cuesOf(row: Row) {
  const m = row.measures;
  const strict = row.layout === 'niger_paper_card';
  const spread = m['front.spread'] ?? Number.NaN;
  const p = m['front.learned_copy'];
  const speckle = m['front.speckle'];
  return {
    colour: photocopyStrength(spread, strict ? STRICT_SCALE : PAGE_SCALE),
    learned: p === undefined ? null : learnedStrength(p, LEARNED_COPY),
    speckle: speckle === undefined ? null : speckleStrength(speckle),
  };
}

const rows: Row[] = [];
for (const file of process.argv.slice(2)) rows.push(...(JSON.parse(await readFile(file, 'utf8')) as Row[]));
const groups = new Map<string, Row[]>();
for (const row of rows) {
  const key = `${row.set ?? 'hazards'} ${row.kind ?? row.condition}`;
  groups.set(key, [...(groups.get(key) ?? []), row]);
}
const table: string[][] = [];
for (const [key, group] of [...groups].sort()) {
  const cells = RULES.map(([, rule]) => {
    let flagged = 0;
    let high = 0;
    for (const row of group) {
      let s = rule(cuesOf(row));
      if (s === null) continue;
      if (row.layout === 'niger_paper_card') s = Math.min(s, PAPER_CARD_MAX);
      flagged++;
      if (Math.round(s * 100) / 100 >= 0.5) high++;
    }
    return `${flagged}/${group.length}, high ${high}`;
  });
  // What the run itself raised (the rule the service had when the dump was written).
  const raised = group.filter((r) => r.signals.some((s) => s.type === 'photocopy' && s.side === 'front'));
  const raisedHigh = raised.filter((r) =>
    r.signals.some((s) => s.type === 'photocopy' && s.side === 'front' && s.severity === 'high'),
  );
  const p = (r: Row) => r.measures['front.learned_copy'];
  const withReview = group.filter(
    (r) => raised.includes(r) || (p(r) !== undefined && learnedCopyReviewStrength(p(r)!) !== null),
  );
  table.push([
    key,
    ...cells,
    `${raised.length}/${group.length}, high ${raisedHigh.length}`,
    `${withReview.length}/${group.length}, high ${raisedHigh.length}`,
  ]);
}
printTable(
  ['set and kind', ...RULES.map(([name]) => name), 'raised in the run', 'run + copy part at review'],
  table,
);
