import type { MrzReadingLine } from './correct.ts';

/**
 * Character-level agreement between several readings of one MRZ line (ROVER-style voting).
 * The name line has no check digit, so nothing in ICAO 9303 can tell "CARMEN<<" from
 * "CARMENK<" or "MEI<HUA" from "ME<HUA"; several readings of the same line (different crop
 * margins and horizontal stretches) make different mistakes, and the characters most of them
 * agree on, weighted by the recogniser's confidence, are right far more often than any single
 * reading (measured on the development set's name-line misreads).
 *
 * 1. Pivot: the reading closest to all others (least total edit distance; ties: most confident).
 * 2. Every reading is aligned to the pivot (Levenshtein), giving per pivot character either a
 *    character or a deletion, and between pivot characters possible insertions.
 * 3. Each slot takes the choice with the most weight; a reading weighs its character's
 *    probability where it has one, else (no character there) its mean confidence times
 *    ABSENCE_WEIGHT: CTC readers drop characters (a narrow I between two letters, one of two
 *    equal letters) far more often than they invent one, so "nothing here" is weaker evidence.
 */

/** Weight of a reading's "no character here" relative to a character it read (see above). */
const ABSENCE_WEIGHT = 0.5;

interface Alignment {
  /** Per pivot position: the aligned character and its probability, or null for a deletion. */
  at: ({ c: string; p: number } | null)[];
  /** Per gap before pivot position i (0..n): the inserted text and its mean probability. */
  ins: { s: string; p: number }[];
}

export function voteReadings(readings: MrzReadingLine[]): MrzReadingLine {
  const usable = readings.filter((r) => r.text.length > 0);
  if (usable.length === 0) return { text: '', probs: [] };
  if (usable.length <= 2) return mostConfident(usable);
  const pivot = medoid(usable);
  const alignments = usable.map((r) => align(pivot.text, r));
  const weightOf = (r: MrzReadingLine) => ABSENCE_WEIGHT * mean(r.probs);
  const text: string[] = [];
  const probs: number[] = [];
  const n = pivot.text.length;
  for (let i = 0; i <= n; i++) {
    // Insertion before position i.
    const insVotes = new Map<string, number>();
    let total = 0;
    usable.forEach((r, j) => {
      const ins = alignments[j]!.ins[i]!;
      const w = ins.s ? ins.p : weightOf(r);
      insVotes.set(ins.s, (insVotes.get(ins.s) ?? 0) + w);
      total += w;
    });
    const [bestIns, insW] = best(insVotes);
    if (bestIns) {
      for (const c of bestIns) {
        text.push(c);
        probs.push(insW / total);
      }
    }
    if (i === n) break;
    const votes = new Map<string, number>();
    total = 0;
    usable.forEach((r, j) => {
      const a = alignments[j]!.at[i];
      const key = a ? a.c : '';
      const w = a ? a.p : weightOf(r);
      votes.set(key, (votes.get(key) ?? 0) + w);
      total += w;
    });
    const [c, w] = best(votes);
    if (c) {
      text.push(c);
      probs.push(w / total);
    }
  }
  return { text: text.join(''), probs };
}

function best(votes: Map<string, number>): [string, number] {
  let key = '';
  let weight = Number.NEGATIVE_INFINITY;
  for (const [k, w] of votes) {
    if (w > weight) {
      key = k;
      weight = w;
    }
  }
  return [key, weight];
}

function mostConfident(rs: MrzReadingLine[]): MrzReadingLine {
  return rs.reduce((a, b) => (mean(b.probs) > mean(a.probs) ? b : a));
}

function medoid(rs: MrzReadingLine[]): MrzReadingLine {
  let bestR = rs[0]!;
  let bestD = Number.POSITIVE_INFINITY;
  for (const a of rs) {
    let d = 0;
    for (const b of rs) if (a !== b) d += editDistance(a.text, b.text);
    if (d < bestD || (d === bestD && mean(a.probs) > mean(bestR.probs))) {
      bestR = a;
      bestD = d;
    }
  }
  return bestR;
}

export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** Levenshtein alignment of `r` against the pivot text, read back from the DP table. */
function align(pivot: string, r: MrzReadingLine): Alignment {
  const n = pivot.length;
  const m = r.text.length;
  const d: number[][] = Array.from({ length: n + 1 }, (_, i) =>
    Array.from({ length: m + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      d[i]![j] = Math.min(
        d[i - 1]![j]! + 1,
        d[i]![j - 1]! + 1,
        d[i - 1]![j - 1]! + (pivot[i - 1] === r.text[j - 1] ? 0 : 1),
      );
    }
  }
  const at: Alignment['at'] = new Array(n).fill(null);
  const insChars: { c: string; p: number }[][] = Array.from({ length: n + 1 }, () => []);
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && d[i]![j] === d[i - 1]![j - 1]! + (pivot[i - 1] === r.text[j - 1] ? 0 : 1)) {
      at[i - 1] = { c: r.text[j - 1]!, p: r.probs[j - 1] ?? 0.5 };
      i--;
      j--;
    } else if (i > 0 && d[i]![j] === d[i - 1]![j]! + 1) {
      at[i - 1] = null;
      i--;
    } else {
      insChars[i]!.unshift({ c: r.text[j - 1]!, p: r.probs[j - 1] ?? 0.5 });
      j--;
    }
  }
  return {
    at,
    ins: insChars.map((cs) => ({
      s: cs.map((x) => x.c).join(''),
      p: cs.length ? mean(cs.map((x) => x.p)) : 0,
    })),
  };
}

function mean(xs: number[]): number {
  return xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : 0;
}
