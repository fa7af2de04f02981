/**
 * Greedy CTC decoding of the recogniser's per-timestep class probabilities: take the best class
 * at each step, merge repeats, drop blanks. With `allowed`, the best class is chosen among the
 * blank and the allowed classes only (the MRZ decoder restricted to A-Z 0-9 <).
 */

export interface DecodedChar {
  char: string;
  /** Probability of the chosen class at its best timestep (renormalised over `allowed` when given). */
  prob: number;
  /** Second-best allowed character at that timestep and its probability (for corrections). */
  alt: string | null;
  altProb: number;
  /** Timestep index (the recogniser emits one step per 8 input pixels). */
  t: number;
}

export interface Decoded {
  text: string;
  chars: DecodedChar[];
  /** Mean character probability, 0 when nothing was read. */
  confidence: number;
}

/**
 * @param probs flattened [T, C] softmax output for one line
 * @param allowed class indices that may be emitted (blank 0 is always allowed); all when undefined
 */
export function ctcDecode(
  probs: Float32Array,
  steps: number,
  classes: string[],
  allowed?: Int32Array,
): Decoded {
  const C = classes.length;
  const chars: DecodedChar[] = [];
  let prev = -1;
  for (let t = 0; t < steps; t++) {
    const row = t * C;
    let best = 0;
    let bestP = probs[row]!;
    let second = -1;
    let secondP = 0;
    let total = bestP;
    // Tight loops without a per-class closure: the unrestricted decode visits 6625 classes per
    // step, ~10 million per passport page, and a call per class cost ~15 % of recognition time.
    const n = allowed ? allowed.length : C - 1;
    for (let q = 0; q < n; q++) {
      const k = allowed ? allowed[q]! : q + 1;
      const p = probs[row + k]!;
      total += p;
      if (p > bestP) {
        if (best !== 0) {
          second = best;
          secondP = bestP;
        }
        best = k;
        bestP = p;
      } else if (p > secondP && k !== 0) {
        second = k;
        secondP = p;
      }
    }
    if (best !== 0 && best !== prev) {
      const norm = allowed ? total : 1;
      chars.push({
        char: classes[best]!,
        prob: bestP / norm,
        alt: second > 0 ? classes[second]! : null,
        altProb: secondP / norm,
        t,
      });
    } else if (best !== 0 && best === prev) {
      // Repeated class: keep the strongest evidence for the merged character.
      const last = chars[chars.length - 1]!;
      const norm = allowed ? total : 1;
      if (bestP / norm > last.prob) last.prob = bestP / norm;
    }
    prev = best;
  }
  const text = chars.map((c) => c.char).join('');
  const confidence = chars.length ? chars.reduce((s, c) => s + c.prob, 0) / chars.length : 0;
  return { text, chars, confidence };
}

/** Class indices of the given characters (each must be in the dictionary). */
export function classIndices(classes: string[], chars: string): Int32Array {
  const out: number[] = [];
  for (const ch of chars) {
    const k = classes.indexOf(ch);
    if (k < 0) throw new Error(`character ${JSON.stringify(ch)} is not in the recogniser dictionary`);
    out.push(k);
  }
  return Int32Array.from(out);
}
