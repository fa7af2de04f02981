import { type MrzDigitCheck, type MrzFormat, type ParsedMrz, parseMrz } from '@idv/core';
import type { ConstrainedLine } from './constrained-decode.ts';

/**
 * Check digits choose between the recogniser's own alternatives, and nothing else. For a failing
 * check, the positions it covers (and the digit itself) are tried with the alternatives the
 * recogniser gave them (constrained-decode.ts); the cheapest change, measured by how much less
 * probable the recogniser found it, that makes the check hold without breaking another wins.
 * A character the recogniser saw no alternative for is never changed: a genuinely wrong printed
 * check digit on a clear print stays wrong and `mrz_checksum` fails.
 */

/** An alternative must have had at least this probability to be used by a repair. */
export const MIN_REPAIR_PROB = 0.02;
/** Most characters one repair may change. */
const MAX_CHANGES = 2;
/** Alternatives tried per check (the most probable ones over its positions). */
const MAX_OPTIONS = 10;

export interface RepairedMrz {
  lines: string[];
  parsed: ParsedMrz;
  /** True when a check digit changed a character. */
  corrected: boolean;
}

interface Option {
  line: number;
  at: number;
  char: string;
  /** -log(alternative / chosen): what the change costs in recogniser belief. */
  cost: number;
}

function validNames(p: ParsedMrz): Set<string> {
  return new Set(p.checks.filter((c) => c.valid).map((c) => c.name));
}

function optionsFor(check: MrzDigitCheck, lines: ConstrainedLine[]): Option[] {
  const out: Option[] = [];
  const spans = [...check.ranges, { line: check.line, start: check.checkAt, end: check.checkAt + 1 }];
  for (const r of spans) {
    const line = lines[r.line];
    if (!line) continue;
    for (let at = r.start; at < r.end; at++) {
      const pos = line.positions[at];
      if (!pos) continue;
      for (const alt of pos.alternatives) {
        if (alt.prob < MIN_REPAIR_PROB) continue;
        out.push({ line: r.line, at, char: alt.char, cost: Math.log(Math.max(pos.prob, 1e-6) / alt.prob) });
      }
    }
  }
  return out.sort((a, b) => a.cost - b.cost).slice(0, MAX_OPTIONS);
}

function apply(texts: string[], changes: Option[]): string[] {
  const out = texts.map((t) => [...t]);
  for (const c of changes) out[c.line]![c.at] = c.char;
  return out.map((l) => l.join(''));
}

export function repairChecks(lines: ConstrainedLine[], format: MrzFormat): RepairedMrz | null {
  let texts = lines.map((l) => l.text);
  let parsed = parseMrz(texts);
  if (!parsed || parsed.format !== format) return null;
  let corrected = false;
  // The field checks first, the composite (which covers them) last.
  const order = [...parsed.checks].sort(
    (a, b) => Number(a.name === 'composite') - Number(b.name === 'composite'),
  );
  for (const name of order.map((c) => c.name)) {
    const check = parsed.checks.find((c) => c.name === name);
    if (!check || check.valid) continue;
    const before = validNames(parsed);
    const options = optionsFor(check, lines);
    let best: { cost: number; texts: string[]; parsed: ParsedMrz } | null = null;
    const consider = (changes: Option[]) => {
      const cost = changes.reduce((s, c) => s + c.cost, 0);
      if (best && cost >= best.cost) return;
      const t = apply(texts, changes);
      const p = parseMrz(t);
      if (!p || p.format !== format) return;
      const after = validNames(p);
      if (!after.has(name)) return;
      for (const v of before) if (!after.has(v)) return;
      best = { cost, texts: t, parsed: p };
    };
    for (let i = 0; i < options.length; i++) {
      consider([options[i]!]);
      if (MAX_CHANGES < 2) continue;
      for (let j = i + 1; j < options.length; j++) {
        const a = options[i]!;
        const b = options[j]!;
        if (a.line === b.line && a.at === b.at) continue;
        consider([a, b]);
      }
    }
    if (best) {
      const chosen: { texts: string[]; parsed: ParsedMrz } = best;
      texts = chosen.texts;
      parsed = chosen.parsed;
      corrected = true;
    }
  }
  return { lines: texts, parsed, corrected };
}
