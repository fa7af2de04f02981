import {
  MRZ_LAYOUTS,
  type MrzDigitCheck,
  type MrzFormat,
  mrzCheckDigit,
  type ParsedMrz,
  parseMrz,
  type Span,
} from '@idv/core';

/**
 * Turns raw MRZ readings into the most plausible printed MRZ, using only what ICAO 9303 fixes:
 * line lengths, the character class of every position, and the check digits.
 *
 * 1. Length: CTC readers most often drop or double a '<' inside a run of fillers; a line of the
 *    wrong length is repaired by adding/removing fillers in one of its '<' runs, choosing the
 *    variant for which the most check digits hold.
 * 2. Character classes (see `positionClasses`): letter-only fields (document code's first letter,
 *    issuing state, nationality, sex, names) cannot contain digits, digit-only fields (dates,
 *    check digits) cannot contain letters: such a character is an OCR confusion by construction
 *    (0↔O, 1↔I, 8↔B, 5↔S, 2↔Z) and is replaced. In alphanumeric fields (document number,
 *    optional data) a run of confusable letters enclosed by digits ("0D0", "1Z3") is read as
 *    digits: numbers are printed as digit runs, and this holds even where the printed check
 *    digit itself is wrong (specimens) and cannot arbitrate.
 * 3. Check digits: where a check digit fails, the usual confusions are tried on the characters it
 *    covers (and on the digit itself), each only in the direction its position's class allows
 *    (never a digit into a letter inside a date, never a digit enclosed by digits into a letter);
 *    the fewest substitutions that make it hold win, ties broken by the recogniser's confidence
 *    in the replaced characters. A check that no substitution repairs is left as read: a
 *    genuinely wrong printed digit is reported, never invented away.
 */

export interface MrzReadingLine {
  text: string;
  /** Recogniser confidence for each character of `text` (same length). */
  probs: number[];
}

export interface CorrectedMrz {
  lines: string[];
  parsed: ParsedMrz;
  /** True when any character differs from the raw reading (apart from length repairs). */
  corrected: boolean;
}

const TO_LETTER: Record<string, string> = { '0': 'O', '1': 'I', '8': 'B', '5': 'S', '2': 'Z' };
const TO_DIGIT: Record<string, string> = {
  O: '0',
  D: '0',
  Q: '0',
  I: '1',
  L: '1',
  B: '8',
  S: '5',
  Z: '2',
  G: '6',
};
const SWAPS: Record<string, string> = { ...TO_LETTER, O: '0', I: '1', B: '8', S: '5', Z: '2' };

/** Confusable characters considered for one failing check (the least confident ones). */
const MAX_CONFUSABLE = 12;
/** Most characters substituted to repair one check digit. */
const MAX_SUBSTITUTIONS = 3;
/**
 * A line is repaired only if it is at most this many characters off its format's length: the
 * recogniser can lose several fillers of a long '<' run, rarely more (beyond, it is not this format).
 */
const MAX_LENGTH_ERROR = 8;
/**
 * Recogniser probability above which a digit inside an alphanumeric field is not turned into a
 * letter by a check-digit repair. On the development set the OCR's real confusions were read at
 * 0.5–0.9, while the wrong "repairs" (a printed specimen with an invalid check digit) changed
 * digits read at ≥ 0.98.
 */
const CONFIDENT_DIGIT = 0.97;

export function correctMrz(raw: MrzReadingLine[], format: MrzFormat): CorrectedMrz | null {
  const L = MRZ_LAYOUTS[format];
  if (raw.length !== L.lineCount) return null;
  if (raw.some((l) => Math.abs(l.text.length - L.lineLength) > MAX_LENGTH_ERROR)) return null;

  // 1. Lengths: each line independently, judged by the checks of the whole MRZ.
  let lines = raw.map((l) => ({ text: l.text, probs: [...l.probs] }));
  for (let i = 0; i < lines.length; i++) {
    const variants = lengthVariants(lines[i]!, L.lineLength);
    let best = variants[0]!;
    let bestScore = -1;
    for (const v of variants) {
      const trial = lines.map((l, k) =>
        k === i ? v.text : l.text.padEnd(L.lineLength, '<').slice(0, L.lineLength),
      );
      const score = validChecks(trial, format);
      if (score > bestScore) {
        bestScore = score;
        best = v;
      }
    }
    lines[i] = best;
  }
  const beforeSubstitution = lines.map((l) => l.text);

  // 2. Letter-only and digit-only fields, then digit runs inside alphanumeric fields. The run
  //    rule applies even when the letters happen to satisfy a check digit: a misreading does so
  //    one time in ten, a genuine number with look-alike letters between digits is far rarer.
  lines = lines.map((l, i) => ({
    ...l,
    text: digitRunsInContext(
      forceDigits(forceLetters(l.text, letterSpans(format, i)), digitSpans(format, i)),
      alphanumericSpans(format, i),
    ),
  }));

  // Names: fillers separate name parts one or two at a time; a longer run only pads the field's
  // end, so whatever follows one (typically a filler read as K) is a filler.
  const nameSpan = MRZ_LAYOUTS[format].name;
  lines = lines.map((l, i) =>
    i === nameSpan.line ? { ...l, text: padAfterFillerRun(l.text, nameSpan) } : l,
  );

  // 3. Check-digit guided substitutions, one failing check at a time.
  let text = lines.map((l) => l.text);
  let parsed = parseMrz(text);
  if (!parsed) return null;
  for (const check of parsed.checks) {
    if (check.valid) continue;
    const fixed = repairCheck(text, lines, check, format);
    if (fixed) text = fixed;
  }
  parsed = parseMrz(text);
  if (!parsed) return null;
  const corrected = text.some((t, i) => t !== beforeSubstitution[i]);
  return { lines: text, parsed, corrected };
}

function validChecks(lines: string[], format: MrzFormat): number {
  const p = parseMrz(lines);
  if (!p || p.format !== format) return -1;
  return p.checks.filter((c) => c.valid).length;
}

/** The line itself (cut/padded), plus every way of fixing its length inside one '<' run. */
function lengthVariants(line: MrzReadingLine, length: number): MrzReadingLine[] {
  const diff = length - line.text.length;
  const plain: MrzReadingLine = {
    text: line.text.padEnd(length, '<').slice(0, length),
    probs: [...line.probs, ...Array(Math.max(0, diff)).fill(0.5)].slice(0, length),
  };
  if (diff === 0) return [plain];
  const out = [plain];
  const runs = [...line.text.matchAll(/<+/g)];
  for (const m of runs) {
    const at = m.index!;
    const runLength = m[0].length;
    if (diff > 0) {
      out.push({
        text: line.text.slice(0, at) + '<'.repeat(diff) + line.text.slice(at),
        probs: [...line.probs.slice(0, at), ...Array(diff).fill(0.5), ...line.probs.slice(at)],
      });
    } else if (runLength >= -diff) {
      out.push({
        text: line.text.slice(0, at) + line.text.slice(at - diff),
        probs: [...line.probs.slice(0, at), ...line.probs.slice(at - diff)],
      });
    }
  }
  return out;
}

/** Spans of a line that may hold only letters and fillers. */
function letterSpans(format: MrzFormat, line: number): Span[] {
  const L = MRZ_LAYOUTS[format];
  const codeLetter = { line: L.documentCode.line, start: 0, end: 1 };
  return [codeLetter, L.issuingState, L.nationality, L.name].filter((s) => s.line === line);
}

/** Spans of a line that may hold only digits (or a filler): dates and the fixed check digits. */
function digitSpans(format: MrzFormat, line: number): Span[] {
  const L = MRZ_LAYOUTS[format];
  return [
    L.dateOfBirth,
    L.dateOfBirthCheck,
    L.dateOfExpiry,
    L.dateOfExpiryCheck,
    L.documentNumberCheck,
    L.composite,
    ...(L.optionalDataCheck ? [L.optionalDataCheck] : []),
  ].filter((s) => s.line === line);
}

/**
 * Alphanumeric contexts of a line: the document number with its check digit, and each optional
 * data field. A digit run is judged inside one context only: the nationality that follows a TD3
 * number is letters by rule, and TD1 optional data may start with letters right after the
 * number's check digit.
 */
export function alphanumericSpans(format: MrzFormat, line: number): Span[] {
  const L = MRZ_LAYOUTS[format];
  const num: Span = {
    line: L.documentNumber.line,
    start: L.documentNumber.start,
    end: L.documentNumberCheck.end,
  };
  const opt: Span = {
    line: L.optionalData.line,
    start: L.optionalData.start,
    end: L.optionalDataCheck ? L.optionalDataCheck.end : L.optionalData.end,
  };
  return [num, opt, ...(L.optionalData2 ? [L.optionalData2] : [])].filter((s) => s.line === line);
}

/** In the name field, everything after the first run of three or more fillers becomes a filler. */
export function padAfterFillerRun(text: string, name: Span): string {
  const field = text.slice(name.start, name.end);
  const run = field.indexOf('<<<');
  if (run < 0) return text;
  const cleaned = field.slice(0, run) + '<'.repeat(field.length - run);
  return text.slice(0, name.start) + cleaned + text.slice(name.end);
}

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const isLetter = (c: string | undefined) => c !== undefined && c >= 'A' && c <= 'Z';

/**
 * Inside alphanumeric fields, a run of letters that all have a digit look-alike (O D Q I L B S Z
 * G) and that sits between two digits is read as digits: "0D0" is 000, "05DS0" is 05050.
 * Runs touching a field edge or a filler are left alone (prefixes like "ZE", suffixes like "B<").
 */
export function digitRunsInContext(text: string, spans: Span[]): string {
  const chars = [...text];
  for (const s of spans) {
    let i = s.start;
    while (i < s.end && i < chars.length) {
      if (!isLetter(chars[i])) {
        i++;
        continue;
      }
      let j = i;
      while (j < s.end && isLetter(chars[j])) j++;
      const enclosed = i > s.start && j < s.end && isDigit(chars[i - 1]) && isDigit(chars[j]);
      if (enclosed && chars.slice(i, j).every((c) => TO_DIGIT[c])) {
        for (let k = i; k < j; k++) chars[k] = TO_DIGIT[chars[k]!]!;
      }
      i = j;
    }
  }
  return chars.join('');
}

/**
 * Whether replacing the character at (line, at) by `to` respects the position's class: digit-only
 * positions take only digits; in alphanumeric fields a character is not turned into a letter
 * between two digits, nor into a digit between two letters (the run would become implausible).
 */
function swapAllowed(
  text: string[],
  format: MrzFormat,
  line: number,
  at: number,
  to: string,
  prob: number,
): boolean {
  const inSpan = (spans: Span[]) => spans.find((s) => at >= s.start && at < s.end);
  if (inSpan(digitSpans(format, line))) return isDigit(to);
  if (inSpan(letterSpans(format, line))) return isLetter(to);
  const ctx = inSpan(alphanumericSpans(format, line));
  if (!ctx) return true;
  const row = text[line]!;
  const left = at > ctx.start ? row[at - 1] : undefined;
  const right = at + 1 < ctx.end ? row[at + 1] : undefined;
  if (isLetter(to) && isDigit(left) && isDigit(right)) return false;
  if (isDigit(to) && isLetter(left) && isLetter(right)) return false;
  // Numbers are mostly digits: a digit read with near certainty is not made a letter just because
  // that satisfies a check digit (one in ten random changes does).
  if (isLetter(to) && prob >= CONFIDENT_DIGIT) return false;
  return true;
}

function forceDigits(text: string, spans: Span[]): string {
  const chars = [...text];
  for (const s of spans) {
    for (let i = s.start; i < s.end && i < chars.length; i++) {
      const c = chars[i]!;
      if (TO_DIGIT[c]) chars[i] = TO_DIGIT[c]!;
    }
  }
  return chars.join('');
}

function forceLetters(text: string, spans: Span[]): string {
  const chars = [...text];
  for (const s of spans) {
    for (let i = s.start; i < s.end && i < chars.length; i++) {
      const c = chars[i]!;
      if (TO_LETTER[c]) chars[i] = TO_LETTER[c]!;
    }
  }
  return chars.join('');
}

/** Positions a check depends on: its data ranges and the digit itself. */
function checkPositions(check: MrzDigitCheck): { line: number; at: number }[] {
  const out: { line: number; at: number }[] = [];
  for (const r of check.ranges) for (let i = r.start; i < r.end; i++) out.push({ line: r.line, at: i });
  out.push({ line: check.line, at: check.checkAt });
  return out;
}

function repairCheck(
  text: string[],
  lines: MrzReadingLine[],
  check: MrzDigitCheck,
  format: MrzFormat,
): string[] | null {
  // Positions already vouched for by another valid check are not touched (the composite
  // overlaps the individual fields).
  const current = parseMrz(text);
  const protectedPos = new Set<string>();
  for (const c of current?.checks ?? []) {
    if (!c.valid || c.name === check.name) continue;
    for (const p of checkPositions(c)) protectedPos.add(`${p.line}:${p.at}`);
  }
  const candidates = checkPositions(check)
    .filter((p) => !protectedPos.has(`${p.line}:${p.at}`))
    .map((p) => ({ ...p, prob: lines[p.line]!.probs[p.at] ?? 0.5 }))
    .filter((p) => {
      const to = SWAPS[text[p.line]![p.at] ?? ''];
      return to !== undefined && swapAllowed(text, format, p.line, p.at, to, p.prob);
    })
    // The least confident characters first: they are the likeliest misreadings.
    .sort((a, b) => a.prob - b.prob)
    .slice(0, MAX_CONFUSABLE);
  let best: { text: string[]; count: number; cost: number } | null = null;
  const n = candidates.length;
  // Fewest substitutions first; a field rarely has more than MAX_SUBSTITUTIONS misreadings, and
  // allowing more would let the search "repair" a genuinely wrong printed digit.
  for (let size = 1; size <= Math.min(n, MAX_SUBSTITUTIONS) && !best; size++) {
    for (const picked of subsets(n, size)) {
      const rows = text.map((t) => [...t]);
      let cost = 0;
      for (const b of picked) {
        const p = candidates[b]!;
        rows[p.line]![p.at] = SWAPS[rows[p.line]![p.at]!]!;
        cost += p.prob;
      }
      if (best && cost >= best.cost) continue;
      // Cheap test first (the digit over the check's ranges); the full parse confirms.
      const data = check.ranges.map((r) => rows[r.line]!.slice(r.start, r.end).join('')).join('');
      if (String(mrzCheckDigit(data)) !== rows[check.line]![check.checkAt]) continue;
      const trial = rows.map((r) => r.join(''));
      const parsed = parseMrz(trial);
      if (!parsed || parsed.format !== format) continue;
      const after = parsed.checks.find((c) => c.name === check.name);
      if (after?.valid) best = { text: trial, count: size, cost };
    }
  }
  return best?.text ?? null;
}

/** All index subsets of {0..n-1} of the given size, in lexicographic order. */
function* subsets(n: number, size: number, from = 0): Generator<number[]> {
  if (size === 0) {
    yield [];
    return;
  }
  for (let i = from; i <= n - size; i++) for (const rest of subsets(n, size - 1, i + 1)) yield [i, ...rest];
}
