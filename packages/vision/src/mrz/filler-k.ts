import { MRZ_LAYOUTS, type MrzFormat, type Span } from '@idv/core';
import type { ConstrainedLine, PositionReading } from './constrained-decode.ts';

/**
 * The filler '<' read as K (issue 13). A K is a '<' whose tip stands on a stem: printers whose
 * chevron is thicker, longer-armed or closed by ink spread, or a neighbouring glyph's bleed, give
 * the recogniser a K-like filler, and on real captures filler runs come out as K
 * (`...<KK<KK<<...`, `MARTINKKCHRISTELLE`).
 *
 * No check digit can tell the two apart: ICAO 9303's check digit weighs a character's value by
 * 7, 3, 1 modulo 10, and K is worth 20, '<' 0, so a K in place of a '<' never changes a check
 * digit (nor A or U, worth 10 and 30). A TD1 whose optional data reads KKK where fillers stand
 * passes every check: a false valid the repair (check-repair.ts) never sees. What tells them
 * apart is the recogniser's own preference, and ICAO 9303's layout where it gave '<' support:
 *
 * - Anywhere: a K the recogniser itself found less likely than '<' at its steps (the decoder's
 *   exact length put it there, see restoreFillers).
 * - Optional data (TD3's personal number, TD1's two fields, TD2's): its content is left-aligned
 *   and padded with fillers, so a K standing among fillers, touching no letter or digit, is the
 *   padding.
 * - The document code's second character, most often a filler (at the names' bar below).
 * - Names: a K standing alone among the fillers after the names (a name part of one letter is
 *   the padding), and, in a name field without the '<<' every name field holds, a KK / K< / <K
 *   between two name parts taking its place.
 *
 * Thresholds: PADDING_SUPPORT, NAME_SUPPORT. A change here never changes which check digits
 * hold (the arithmetic above), so it cannot make a failing MRZ pass: a wrong printed check digit
 * still fails.
 */

/**
 * Where ICAO's layout says only fillers stand (the padding of optional data and of the names
 * after their last part), a K standing among fillers gives way to '<' when the recogniser gave
 * '<' at least this probability there: the bar of a check-digit repair's alternatives
 * (check-repair.ts MIN_REPAIR_PROB), since the layout here is as strong a witness. On fillers
 * drawn K-like the recogniser's '<' at such K's has a median of ~0.04: a bar of 0.1 would leave
 * about 60 % of them K, 0.02 about 45 % (tuning seed 11, decisions.md).
 */
export const PADDING_SUPPORT = 0.02;

/**
 * Between or at the end of name parts the layout is a weaker witness (KONE, MALIK, <<KARIM are
 * names): a K there gives way only at this '<' support. Genuine name K's of the tuning seeds
 * were read with '<' at ≥ 0.1 about 3 % of the time, fillers read as K between them about two
 * thirds of the time.
 */
export const NAME_SUPPORT = 0.1;

/** The probability the recogniser gave '<' at a position read as K (0 when it gave none). */
export function fillerSupport(pos: PositionReading | undefined): number {
  if (pos?.char !== 'K') return 0;
  return pos.alternatives.find((a) => a.char === '<')?.prob ?? 0;
}

/** Runs of K's within `span` whose neighbours (or the span's ends) are fillers: line positions. */
function isolatedKRuns(text: string, span: Span): number[][] {
  const runs: number[][] = [];
  let at = span.start;
  while (at < span.end) {
    if (text[at] !== 'K') {
      at++;
      continue;
    }
    const start = at;
    while (at < span.end && text[at] === 'K') at++;
    const before = start === span.start || text[start - 1] === '<';
    const after = at === span.end || text[at] === '<';
    if (before && after) runs.push(Array.from({ length: at - start }, (_, i) => start + i));
  }
  return runs;
}

/** The optional-data fields of a format (a field's content left-aligned, padded with fillers). */
function optionalFields(format: MrzFormat): Span[] {
  const L = MRZ_LAYOUTS[format];
  return [L.optionalData, ...(L.optionalData2 ? [L.optionalData2] : [])];
}

/**
 * Where the names end in a name field (an index into the field): after the last letter that is
 * not a K standing alone among fillers.
 */
function namesEnd(field: string): number {
  for (let i = field.length - 1; i >= 0; i--) {
    const c = field[i]!;
    if (c === '<') continue;
    if (c !== 'K') return i + 1;
    const letterBeside = [field[i - 1], field[i + 1]].some((n) => n !== undefined && n !== 'K' && n !== '<');
    if (letterBeside) return i + 1;
  }
  return 0;
}

/**
 * Positions of the name field's K's taken for fillers (line positions): K's standing among the
 * padding after the names; a last name part's final K followed by the padding; and, when the
 * names hold no '<<', the first KK / K< / <K between two name parts taking its place.
 */
function nameCandidates(text: string, name: Span, support: (i: number) => number): number[] {
  const out: number[] = [];
  const field = text.slice(name.start, name.end);
  const end = name.start + namesEnd(field);
  for (const run of isolatedKRuns(text, { line: name.line, start: end, end: name.end })) {
    out.push(...run.filter((i) => support(i) >= PADDING_SUPPORT));
  }
  const last = end - 1;
  if (text[last] === 'K' && /[A-Z]/.test(text[last - 1] ?? '') && support(last) >= NAME_SUPPORT) {
    out.push(last);
  }
  // The '<<' looked for is between name parts, not in the padding after them.
  if (text.slice(name.start, end).includes('<<')) return out;
  // Left to right: the surname ends first.
  for (let i = name.start + 1; i + 1 < end; i++) {
    const pair = text.slice(i, i + 2);
    if (pair !== 'KK' && pair !== 'K<' && pair !== '<K') continue;
    const between = /[A-Z]/.test(text[i - 1]!) && /[A-Z]/.test(text[i + 2] ?? '');
    const ks = [i, i + 1].filter((j) => text[j] === 'K');
    if (between && ks.every((j) => support(j) >= NAME_SUPPORT)) {
      out.push(...ks);
      break;
    }
  }
  return out;
}

/**
 * The line with `changed` positions read as '<': the character read becomes an alternative, and
 * the '<' keeps the recogniser's own probability (0 where it saw none: a change the layout made,
 * name-tail.ts, must not raise the reading's confidence).
 */
export function withFillers(line: ConstrainedLine, changed: Set<number>): ConstrainedLine {
  const positions = line.positions.map((pos, i) => {
    if (!changed.has(i)) return pos;
    const filler = pos.alternatives.find((a) => a.char === '<')?.prob ?? 0;
    const rest = pos.alternatives.filter((a) => a.char !== '<');
    return {
      char: '<',
      prob: filler,
      alternatives: [{ char: pos.char, prob: pos.prob }, ...rest].sort((a, b) => b.prob - a.prob),
    };
  });
  return { text: positions.map((q) => q.char).join(''), positions, logProb: line.logProb };
}

export interface RestoredFillers {
  lines: ConstrainedLine[];
  /** Every K considered (line:position and the recogniser's '<' support), changed or not. */
  considered: { line: number; at: number; support: number; changed: boolean }[];
}

/**
 * The decoded lines with fillers read as K restored, in optional data and in the name field.
 * `considered` lists every K the rules looked at, for the profile (measurement only).
 */
export function restoreFillers(lines: ConstrainedLine[], format: MrzFormat): RestoredFillers {
  const L = MRZ_LAYOUTS[format];
  const changed = lines.map(() => new Set<number>());
  const considered: RestoredFillers['considered'] = [];
  const look = (line: number) => (i: number) => {
    const support = fillerSupport(lines[line]!.positions[i]);
    considered.push({ line, at: i, support, changed: false });
    return support;
  };
  // Anywhere: a K whose '<' the recogniser found likelier at its own steps. The decoder reads
  // a run of n fillers as n characters even when the recogniser left no blank between two of
  // them, and two equal characters need one (CTC's rule): the cheapest other character, often
  // K, then stands between them, read at a few percent against the '<' at over ninety.
  for (const [li, line] of lines.entries()) {
    for (const [i, pos] of line.positions.entries()) {
      const support = fillerSupport(pos);
      if (support <= pos.prob) continue;
      changed[li]!.add(i);
      considered.push({ line: li, at: i, support, changed: true });
    }
  }
  // The layout's rules look at the lines with those fillers back (a K beside one of them stands
  // among fillers).
  const texts = lines.map((l, li) => [...l.text].map((c, i) => (changed[li]!.has(i) ? '<' : c)).join(''));
  for (const span of optionalFields(format)) {
    const text = texts[span.line];
    if (text === undefined) continue;
    const support = look(span.line);
    for (const i of isolatedKRuns(text, span).flat()) {
      if (support(i) >= PADDING_SUPPORT) changed[span.line]!.add(i);
    }
  }
  // The document code's second character: most documents leave it a filler, some issuers put
  // a letter there (PD, PS, ID, IC); a K read there gives way at the names' bar.
  const code = L.documentCode;
  const second = code.start + 1;
  if (texts[code.line]?.[second] === 'K' && look(code.line)(second) >= NAME_SUPPORT) {
    changed[code.line]!.add(second);
  }
  const nameText = texts[L.name.line];
  if (nameText !== undefined) {
    for (const i of nameCandidates(nameText, L.name, look(L.name.line))) changed[L.name.line]!.add(i);
  }
  return {
    lines: lines.map((l, i) => (changed[i]!.size > 0 ? withFillers(l, changed[i]!) : l)),
    considered: considered.map((c) => ({ ...c, changed: changed[c.line]!.has(c.at) })),
  };
}
