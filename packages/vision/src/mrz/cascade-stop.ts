import { icaoStateName, MRZ_LAYOUTS, type ParsedMrz, parseMrz } from '@idv/core';
import { MIN_REPAIR_PROB } from './check-repair.ts';
import type { PositionReading } from './constrained-decode.ts';
import { plausible } from './locate.ts';
import type { ModelMrzReading } from './model-read.ts';

/**
 * When the cascade (read.ts) may keep the MRZ model's reading without the vote of both
 * recognisers, the largest recognition cost of a verification (PP-OCR on stretched rows, then
 * the legacy re-read). Two ways to stop:
 * - `sure`: the model's reading is complete and no position hesitated (modelSure);
 * - `checks`: the reading is complete and its hesitations all sit under check digits, which
 *   decide them uniquely: every other combination the recognisers saw fails a check digit.
 * Otherwise the cascade votes, and the reason says why (the profile and the reading eval count
 * them, runtime/profile.ts).
 */

/**
 * A reading nothing more can improve: exact line lengths and every check digit holding. Visas
 * (document code V, ICAO 9303-7) carry no composite digit and no personal-number digit, so
 * those two are not expected to hold on them.
 */
export function complete(m: { lines: string[]; parsed: ParsedMrz }): boolean {
  if (!m.parsed.lengthsValid) return false;
  if (m.parsed.valid) return true;
  const visa = m.lines[0]!.startsWith('V');
  return (
    visa &&
    m.parsed.fieldsWellFormed &&
    !m.parsed.invalidCharacters &&
    m.parsed.checks.every((c) => c.valid || c.name === 'composite' || c.name === 'optional_data')
  );
}

/**
 * A position the model read without hesitation. Hesitation is a runner-up with real probability,
 * not a low peak: the model's peaks are often low on a clean, correct reading (0.4-0.7 measured
 * on the tuning layouts), while its wrong readings had a runner-up of 0.2-0.35 (O read for 0 in a
 * number of zeros, where three such swaps leave the check digit unchanged). Check digits cover
 * every field but the names, so a name position gets the stricter floor.
 */
const SURE_MIN = 0.3;
const SURE_NAME_MIN = 0.5;
/** A runner-up at or above this probability, or above half the chosen one, is hesitation. */
const SURE_MAX_RUNNER_UP = 0.2;
/**
 * The same on a name position, lower: a letter misread there stands unchecked, and the model's
 * confident misreads of small blurred names (B read as D at 0.75 against 0.185) sat just under
 * SURE_MAX_RUNNER_UP; correct sure names rarely leave a runner-up this high (decisions.md).
 */
const SURE_NAME_MAX_RUNNER_UP = 0.15;
function surePosition(q: PositionReading, inName: boolean): boolean {
  const runnerUp = q.alternatives[0]?.prob ?? 0;
  return (
    q.prob >= (inName ? SURE_NAME_MIN : SURE_MIN) &&
    runnerUp < (inName ? SURE_NAME_MAX_RUNNER_UP : SURE_MAX_RUNNER_UP) &&
    runnerUp < q.prob / 2
  );
}

function nameFieldHasFiller(r: ModelMrzReading): boolean {
  const { name } = MRZ_LAYOUTS[r.format];
  return r.lines[name.line]!.slice(name.start, name.end).includes('<<');
}

function inNameField(r: ModelMrzReading, line: number, at: number): boolean {
  const { name } = MRZ_LAYOUTS[r.format];
  return line === name.line && at >= name.start && at < name.end;
}

/** The MRZ model's reading is complete, plausible and sure at every position. */
export function modelSure(r: ModelMrzReading): boolean {
  if (!complete(r) || !plausible(r) || !nameFieldHasFiller(r)) return false;
  return r.decoded.every((d, li) => d.positions.every((q, i) => surePosition(q, inNameField(r, li, i))));
}

/**
 * Pairs the check digits are not trusted to settle: settling them without the vote was measured
 * to lose readings on the tuning layouts. G/6 and U/0 are the model's confusions on fonts other
 * than OCR-B (a document number's letter and digit can swap with the check still holding), K/<
 * is PP-OCR's filler misread (issue 13), the very confusion the vote with its filler weight
 * exists for. A hesitation between them always goes to the vote.
 */
const UNTRUSTED_PAIRS = ['G6', 'U0', 'K<'];
function untrustedPair(a: string, b: string): string | null {
  return UNTRUSTED_PAIRS.find((p) => p === a + b || p === b + a) ?? null;
}

/**
 * Most combinations enumerated (the product over hesitant positions of their options): a reading
 * with more doubt than this is not one the check digits can be said to decide (8 positions with
 * one alternative each); the vote reads it.
 */
const MAX_COMBINATIONS = 256;

interface Hesitation {
  line: number;
  at: number;
  /** The other characters the recognisers saw there (the model's alternatives, the page's). */
  options: string[];
}

export type CascadeStop = { stop: 'sure' } | { stop: 'checks' } | { stop: null; reason: string };

/**
 * The cascade's stop decision for the model's reading `r`; `pageLines` are the page reading's
 * rows aligned to positions (model-read.ts pageMrzLines, null where a row does not align).
 */
export function cascadeStop(r: ModelMrzReading, pageLines: (string | null)[]): CascadeStop {
  if (!complete(r)) return { stop: null, reason: 'check digit failing' };
  if (!plausible(r)) return { stop: null, reason: 'implausible' };
  if (!nameFieldHasFiller(r)) return { stop: null, reason: "name field without '<<'" };
  if (modelSure(r)) return { stop: 'sure' };
  const decided = checksDecide(r, pageLines);
  return decided === true ? { stop: 'checks' } : { stop: null, reason: decided };
}

/**
 * True when the check digits decide every hesitation of a complete reading uniquely, else the
 * reason they do not. Name positions (no check digit covers them) must be sure, as must every
 * other position no check covers (document code, states, sex); both state codes must be real
 * ICAO codes (a hesitating letter there has no check digit behind it). A genuinely wrong printed
 * check digit never gets here: the reading would not be complete. Every other reading the
 * recognisers saw (the model's alternatives of at least MIN_REPAIR_PROB, the page reading's
 * character) at the positions of the field checks covering a hesitation must fail a check.
 */
export function checksDecide(r: ModelMrzReading, pageLines: (string | null)[]): true | string {
  if (!complete(r)) return 'check digit failing';
  const L = MRZ_LAYOUTS[r.format];
  for (const span of [L.issuingState, L.nationality]) {
    if (!icaoStateName(r.lines[span.line]!.slice(span.start, span.end))) return 'unknown state code';
  }
  const key = (line: number, at: number) => line * 100 + at;
  const hesitant = new Set<number>();
  for (let li = 0; li < r.lines.length; li++) {
    const positions = r.decoded[li]!.positions;
    for (let at = 0; at < r.lines[li]!.length; at++) {
      const q = positions[at]!;
      const repaired = q.char !== r.lines[li]![at];
      if (repaired || !surePosition(q, inNameField(r, li, at))) hesitant.add(key(li, at));
    }
  }
  // Every position of a field check covering a hesitation is enumerated, the sure ones too: two
  // swaps can cancel in a check (an O read for 0 at weights 7 and 3 adds 24 × 10 ≡ 0 mod 10), so
  // one hesitant O whose single swap fails says nothing when another O beside it may be a 0 too.
  // The composite covers nearly a whole line; it is checked on every combination, not enumerated.
  const enumerated = new Set<number>();
  const covered = new Set<number>();
  for (const c of r.parsed.checks) {
    const spans = [...c.ranges, { line: c.line, start: c.checkAt, end: c.checkAt + 1 }];
    const keys = spans.flatMap((s) =>
      Array.from({ length: s.end - s.start }, (_, i) => key(s.line, s.start + i)),
    );
    for (const k of keys) covered.add(k);
    if (c.name !== 'composite' && keys.some((k) => hesitant.has(k))) for (const k of keys) enumerated.add(k);
  }
  for (const k of hesitant) {
    const li = Math.floor(k / 100);
    const at = k % 100;
    if (inNameField(r, li, at)) return 'name position unsure';
    if (!covered.has(k)) return 'position without check digit unsure';
    enumerated.add(k);
  }
  const hesitations: Hesitation[] = [];
  let combinations = 1;
  for (const k of [...enumerated].sort((a, b) => a - b)) {
    const li = Math.floor(k / 100);
    const at = k % 100;
    const q = r.decoded[li]!.positions[at]!;
    const chosen = r.lines[li]![at]!;
    const seen = [q.char, ...q.alternatives.filter((a) => a.prob >= MIN_REPAIR_PROB).map((a) => a.char)];
    const page = pageLines[li]?.[at];
    if (page) seen.push(page);
    const options = [...new Set(seen)].filter((c) => c !== chosen);
    for (const o of options) {
      const pair = untrustedPair(chosen, o);
      if (pair) return `hesitation ${pair[0]}/${pair[1]}`;
    }
    if (options.length === 0) continue;
    combinations *= options.length + 1;
    if (combinations > MAX_COMBINATIONS) return 'too many combinations';
    hesitations.push({ line: li, at, options });
  }
  return anotherCombinationHolds(r, hesitations) ? 'another reading passes the checks' : true;
}

/** Whether any combination of the hesitations' options other than the reading itself is complete. */
function anotherCombinationHolds(r: ModelMrzReading, hesitations: Hesitation[]): boolean {
  const chars = r.lines.map((l) => [...l]);
  const visit = (k: number, changed: boolean): boolean => {
    if (k === hesitations.length) {
      if (!changed) return false;
      const lines = chars.map((c) => c.join(''));
      const parsed = parseMrz(lines);
      return parsed !== null && parsed.format === r.format && complete({ lines, parsed });
    }
    const h = hesitations[k]!;
    const own = chars[h.line]![h.at]!;
    if (visit(k + 1, changed)) return true;
    for (const o of h.options) {
      chars[h.line]![h.at] = o;
      const holds = visit(k + 1, true);
      chars[h.line]![h.at] = own;
      if (holds) return true;
    }
    return false;
  };
  return visit(0, false);
}
