import { MRZ_LAYOUTS, type MrzDigitCheck, type MrzFormat, type ParsedMrz, parseMrz } from '@idv/core';
import { noteDecision } from '../runtime/profile.ts';
import type { ConstrainedLine } from './constrained-decode.ts';

/**
 * Check digits choose between the recogniser's own alternatives, and nothing else. For a failing
 * check, the positions it covers (and the digit itself) are tried with the alternatives the
 * recogniser gave them (constrained-decode.ts); the cheapest change, measured by how much less
 * probable the recogniser found it, that makes the check hold without breaking another wins,
 * unless it costs more than a check digit's pass can vouch for (MAX_REPAIR_COST).
 * A character the recogniser saw no alternative for is never changed: a genuinely wrong printed
 * check digit on a clear print stays wrong and `mrz_checksum` fails.
 */

/** An alternative must have had at least this probability to be used by a repair. */
export const MIN_REPAIR_PROB = 0.02;
/** Most characters one repair may change. */
const MAX_CHANGES = 2;
/** Alternatives tried per check (the most probable ones over its positions). */
const MAX_OPTIONS = 10;
/**
 * A check digit is one decimal digit: a reading changed at random passes it one time in ten, and
 * the search below tries up to 55 combinations (10 single changes and their pairs), so on a
 * misread some combination often passes by chance. A pass is evidence worth a factor of ten at
 * most: a repair whose total cost (-log of how much less probable the recogniser found the
 * changed characters than its reading) exceeds ln 10 is likelier a chance pass than a correction,
 * and is refused (two alternatives at ~1 % of their readings, a misread fixed into validity,
 * cost ~9). A refused repair leaves the check failing: an honest `mrz_checksum` fail.
 * Measured and not kept (decisions.md): also refusing when another passing combination is nearly
 * as probable; the profile still records that margin.
 */
const MAX_REPAIR_COST = Math.log(10);

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
  /** The character read there, and the probabilities of it and of the alternative. */
  from: string;
  chosenProb: number;
  altProb: number;
  /** -log(alternative / chosen): what the change costs in recogniser belief. */
  cost: number;
}

/** A repair as the profile records it (measurement only): `check: 1:12 O>0 0.610/0.300, …`. */
function describe(check: string, changes: Option[]): string {
  const each = changes.map(
    (c) => `${c.line}:${c.at} ${c.from}>${c.char} ${c.chosenProb.toFixed(3)}/${c.altProb.toFixed(3)}`,
  );
  return `${check}: ${each.join(', ')}`;
}

function validNames(p: ParsedMrz): Set<string> {
  return new Set(p.checks.filter((c) => c.valid).map((c) => c.name));
}

function optionsFor(check: MrzDigitCheck, lines: ConstrainedLine[]): Option[] {
  const out: Option[] = [];
  for (const r of spansOf(check)) {
    const line = lines[r.line];
    if (!line) continue;
    for (let at = r.start; at < r.end; at++) {
      const pos = line.positions[at];
      if (!pos) continue;
      for (const alt of pos.alternatives) {
        if (alt.prob < MIN_REPAIR_PROB) continue;
        out.push({
          line: r.line,
          at,
          char: alt.char,
          from: pos.char,
          chosenProb: pos.prob,
          altProb: alt.prob,
          cost: Math.log(Math.max(pos.prob, 1e-6) / alt.prob),
        });
      }
    }
  }
  return out.sort((a, b) => a.cost - b.cost).slice(0, MAX_OPTIONS);
}

/** A combination of changes that makes the failing check hold without breaking another. */
interface Candidate {
  cost: number;
  texts: string[];
  parsed: ParsedMrz;
  changes: Option[];
}

/** The cheapest candidate of each distinct text, cheapest first (`ranked` sorted by cost). */
function distinct(ranked: Candidate[]): Candidate[] {
  const seen = new Set<string>();
  return ranked.filter((c) => {
    const key = c.texts.join('\n');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Every position a check covers, its digit included. */
function spansOf(check: MrzDigitCheck) {
  return [...check.ranges, { line: check.line, start: check.checkAt, end: check.checkAt + 1 }];
}

/** What the profile records beside a repair (measurement only). */
function evidence(ranked: Candidate[]): string {
  const margin = ranked[1] ? (ranked[1].cost - ranked[0]!.cost).toFixed(2) : 'none';
  return `cost=${ranked[0]!.cost.toFixed(2)} margin=${margin} passing=${ranked.length}`;
}

/** Why the cheapest passing candidate is not taken, or null when it is. */
function refusal(best: Candidate): string | null {
  return best.cost > MAX_REPAIR_COST ? 'cost' : null;
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
    const passing: Candidate[] = [];
    const consider = (changes: Option[]) => {
      const t = apply(texts, changes);
      const p = parseMrz(t);
      if (!p || p.format !== format) return;
      const after = validNames(p);
      if (!after.has(name)) return;
      for (const v of before) if (!after.has(v)) return;
      passing.push({ cost: changes.reduce((s, c) => s + c.cost, 0), texts: t, parsed: p, changes });
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
    const ranked = distinct(passing.sort((a, b) => a.cost - b.cost));
    const best = ranked[0];
    if (best) {
      const refused = refusal(best);
      noteDecision(
        'mrz-repair',
        `${describe(name, best.changes)} ${evidence(ranked)} ${refused ? `refused: ${refused}` : 'kept'}`,
      );
      if (refused) continue;
      texts = best.texts;
      parsed = best.parsed;
      corrected = true;
    }
  }
  const agreed = agreeStates(lines, texts, format, parsed);
  if (agreed) return { lines: agreed.texts, parsed: agreed.parsed, corrected: true };
  return { lines: texts, parsed, corrected };
}

/**
 * No check digit covers the issuing state or the nationality, and they are nearly always the
 * same code. When they differ by one letter and the recogniser itself saw, at that position of
 * one of them, the other's letter (an alternative of at least MIN_REPAIR_PROB: `MLL` read where
 * `MLI` is printed, the I's runner-up being I), that one takes it; the cheaper change of the two
 * wins. Codes that differ in more than one letter (a foreigner's card), or a difference the
 * recogniser saw no doubt in, are left as read.
 */
function agreeStates(
  lines: ConstrainedLine[],
  texts: string[],
  format: MrzFormat,
  parsed: ParsedMrz,
): { texts: string[]; parsed: ParsedMrz } | null {
  const L = MRZ_LAYOUTS[format];
  const a = L.issuingState;
  const b = L.nationality;
  const sa = texts[a.line]!.slice(a.start, a.end);
  const sb = texts[b.line]!.slice(b.start, b.end);
  const diff = [...sa].flatMap((c, i) => (c !== sb[i] ? [i] : []));
  if (diff.length !== 1 || sa.includes('<') || sb.includes('<')) return null;
  const i = diff[0]!;
  const options: Option[] = [];
  const consider = (span: typeof a, want: string) => {
    const pos = lines[span.line]?.positions[span.start + i];
    const alt = pos?.alternatives.find((x) => x.char === want);
    if (!pos || !alt || alt.prob < MIN_REPAIR_PROB) return;
    options.push({
      line: span.line,
      at: span.start + i,
      char: want,
      from: pos.char,
      chosenProb: pos.prob,
      altProb: alt.prob,
      cost: Math.log(Math.max(pos.prob, 1e-6) / alt.prob),
    });
  };
  consider(a, sb[i]!);
  consider(b, sa[i]!);
  const best = options.sort((x, y) => x.cost - y.cost)[0];
  if (!best) return null;
  const t = apply(texts, [best]);
  const p = parseMrz(t);
  if (!p || p.format !== format) return null;
  const before = validNames(parsed);
  const after = validNames(p);
  for (const v of before) if (!after.has(v)) return null;
  noteDecision('mrz-repair', describe('states', [best]));
  return { texts: t, parsed: p };
}
