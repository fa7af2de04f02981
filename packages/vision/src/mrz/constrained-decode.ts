import { type LinePosteriors, MRZ_MODEL_CLASSES } from './line-model.ts';

/**
 * Constrained CTC decoding of one MRZ line: the most probable alignment of exactly `sets.length`
 * characters, the character at position i taken from `sets[i]` (positions.ts). A filler run
 * keeps its length, a country code stays letters, a date stays digits: the format decides what
 * may be read, the recogniser decides which of those it is.
 *
 * Viterbi over CTC states: for every position i, a blank state (after i characters) and one state
 * per allowed class; two equal characters in a row need a blank between them (CTC's rule).
 * Besides the text, every position keeps the recogniser's own alternatives: the probability of
 * each allowed class over the steps aligned to that position. Check digits may later choose among
 * these alternatives, and only among them (check-repair.ts).
 */

export interface PositionReading {
  char: string;
  /** Probability of `char` at its aligned steps (the best step). */
  prob: number;
  /** Other allowed characters the recogniser saw at this position, most probable first. */
  alternatives: { char: string; prob: number }[];
}

export interface ConstrainedLine {
  text: string;
  positions: PositionReading[];
  /** Log probability of the best alignment (path score). */
  logProb: number;
}

/** An alternative is kept when the recogniser gave it at least this probability at the position. */
const MIN_ALTERNATIVE = 0.01;
const NEG = Number.NEGATIVE_INFINITY;

function classIndex(c: string): number {
  return MRZ_MODEL_CLASSES.indexOf(c);
}

const setCache = new Map<string, Int32Array>();
function indices(set: string): Int32Array {
  let r = setCache.get(set);
  if (!r) {
    r = Int32Array.from([...set].map(classIndex));
    setCache.set(set, r);
  }
  return r;
}

/** Null when the line has fewer steps than its characters need. */
export function decodeConstrained(
  p: LinePosteriors,
  sets: string[],
  opts: { fillerWeight?: number } = {},
): ConstrainedLine | null {
  const n = sets.length;
  const T = p.steps;
  const C = p.classes;
  if (T < n) return null;
  const lp = new Float32Array(T * C);
  for (let i = 0; i < lp.length; i++) lp[i] = Math.log(Math.max(p.probs[i]!, 1e-12));
  const allowed = sets.map(indices);
  // Log prior added to '<' where it competes with letters (see DecodeOptions.fillerWeight).
  const filler = MRZ_MODEL_CLASSES.length - 1;
  const boost = sets.map((set) =>
    set.includes('<') && set.includes('K') ? Math.log(opts.fillerWeight ?? 1) : 0,
  );
  // State (i, k): i characters emitted (0..n), k = 0 blank after them, k > 0 emitting class k as
  // character i (i >= 1). Scores for the current step, back-pointers for every step.
  const S = (n + 1) * C;
  let prev = new Float64Array(S).fill(NEG);
  let cur = new Float64Array(S).fill(NEG);
  // Only the states on a path are ever read back (each was written when it was reached): no fill.
  const back = new Int32Array(T * S);
  prev[0] = lp[0]!;
  for (const k of allowed[0]!) prev[C + k] = lp[k]! + (k === filler ? boost[0]! : 0);
  for (let t = 1; t < T; t++) {
    const row = t * C;
    const bt = t * S;
    // The band of states on some path from the first step to the last: after t + 1 steps at
    // most t + 1 characters are out, and the n − i characters still to come need as many of the
    // T − 1 − t steps left. States above the band stay unreached (−∞), as the full computation
    // leaves them; states below it are never read again (the next step's band starts one higher).
    // The states inside see the same values either way (test/reading/mrz-constrained-band.test.ts).
    const iLow = Math.max(0, n - (T - 1 - t));
    const iHigh = Math.min(n, t + 1);
    cur.fill(NEG, iLow * C, (iHigh + 1) * C);
    for (let i = iLow; i <= iHigh; i++) {
      const base = i * C;
      // Blank after i characters: from itself or from character i.
      let best = prev[base]!;
      let arg = base;
      if (i >= 1) {
        const set = allowed[i - 1]!;
        for (let j = 0; j < set.length; j++) {
          const k = set[j]!;
          if (prev[base + k]! > best) {
            best = prev[base + k]!;
            arg = base + k;
          }
        }
      }
      if (best > NEG) {
        cur[base] = best + lp[row]!;
        back[bt + base] = arg;
      }
      if (i === 0) continue;
      // Character i with class k: from itself, from the blank before it, or from a different
      // class at character i-1 (best and second best of the previous position, to skip k).
      const pb = (i - 1) * C;
      let b1 = NEG;
      let a1 = -1;
      let b2 = NEG;
      let a2 = -1;
      if (i >= 2) {
        const before = allowed[i - 2]!;
        for (let j = 0; j < before.length; j++) {
          const k = before[j]!;
          const v = prev[pb + k]!;
          if (v > b1) {
            b2 = b1;
            a2 = a1;
            b1 = v;
            a1 = k;
          } else if (v > b2) {
            b2 = v;
            a2 = k;
          }
        }
      }
      const set = allowed[i - 1]!;
      const blankBefore = prev[pb]!;
      const fillerBoost = boost[i - 1]!;
      for (let j = 0; j < set.length; j++) {
        const k = set[j]!;
        let bestK = prev[base + k]!;
        let argK = base + k;
        if (blankBefore > bestK) {
          bestK = blankBefore;
          argK = pb;
        }
        const other = a1 !== k;
        const vo = other ? b1 : b2;
        const ao = other ? a1 : a2;
        if (ao >= 0 && vo > bestK) {
          bestK = vo;
          argK = pb + ao;
        }
        if (bestK > NEG) {
          cur[base + k] = bestK + lp[row + k]! + (k === filler ? fillerBoost : 0);
          back[bt + base + k] = argK;
        }
      }
    }
    [prev, cur] = [cur, prev];
  }
  // End in the blank after n characters or on character n.
  const end = n * C;
  let state = end;
  let score = prev[end]!;
  for (const k of allowed[n - 1]!) {
    if (prev[end + k]! > score) {
      score = prev[end + k]!;
      state = end + k;
    }
  }
  if (score === NEG) return null;
  // Back-trace: the class and the steps of every character.
  const classOf = new Int32Array(n);
  const stepsOf: number[][] = Array.from({ length: n }, () => []);
  for (let t = T - 1; t >= 0; t--) {
    const i = Math.floor(state / C);
    const k = state % C;
    if (k > 0) {
      classOf[i - 1] = k;
      stepsOf[i - 1]!.push(t);
    }
    if (t > 0) state = back[t * S + state]!;
  }
  const positions: PositionReading[] = [];
  for (let i = 0; i < n; i++) {
    const steps = stepsOf[i]!;
    const scored = [...allowed[i]!].map((k) => {
      let best = 0;
      for (const t of steps) best = Math.max(best, p.probs[t * C + k]!);
      return { k, prob: best };
    });
    scored.sort((a, b) => b.prob - a.prob);
    const chosen = classOf[i]!;
    const own = scored.find((s) => s.k === chosen)!;
    positions.push({
      char: MRZ_MODEL_CLASSES[chosen]!,
      prob: own.prob,
      alternatives: scored
        .filter((s) => s.k !== chosen && s.prob >= MIN_ALTERNATIVE)
        .map((s) => ({ char: MRZ_MODEL_CLASSES[s.k]!, prob: s.prob })),
    });
  }
  return { text: positions.map((q) => q.char).join(''), positions, logProb: score };
}
