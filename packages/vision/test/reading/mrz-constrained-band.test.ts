import { describe, expect, it } from 'vitest';
import { decodeConstrained } from '../../src/mrz/constrained-decode.ts';
import { type LinePosteriors, MRZ_MODEL_CLASSES } from '../../src/mrz/line-model.ts';
import { positionSets } from '../../src/mrz/positions.ts';
import { rng } from '../tamper/synthetic.ts';

const C = MRZ_MODEL_CLASSES.length;
const NEG = Number.NEGATIVE_INFINITY;

/**
 * The best path's score by the plain Viterbi over every state at every step (no band), the same
 * log probabilities (stored as 32-bit floats, as the decoder does) and the same sums.
 */
function plainBestScore(p: LinePosteriors, sets: string[], fillerWeight: number): number {
  const n = sets.length;
  const lp = Float32Array.from(p.probs, (v) => Math.log(Math.max(v, 1e-12)));
  const allowed = sets.map((s) => [...s].map((c) => MRZ_MODEL_CLASSES.indexOf(c)));
  const filler = C - 1;
  const boost = sets.map((s) => (s.includes('<') && s.includes('K') ? Math.log(fillerWeight) : 0));
  const at = (score: Float64Array, i: number, k: number) => score[i * C + k]!;
  let prev = new Float64Array((n + 1) * C).fill(NEG);
  prev[0] = lp[0]!;
  for (const k of allowed[0]!) prev[C + k] = lp[k]! + (k === filler ? boost[0]! : 0);
  for (let t = 1; t < p.steps; t++) {
    const cur = new Float64Array((n + 1) * C).fill(NEG);
    for (let i = 0; i <= n; i++) {
      const blank = Math.max(at(prev, i, 0), ...(i >= 1 ? allowed[i - 1]!.map((k) => at(prev, i, k)) : []));
      if (blank > NEG) cur[i * C] = blank + lp[t * C]!;
      if (i === 0) continue;
      for (const k of allowed[i - 1]!) {
        const from = [at(prev, i, k), at(prev, i - 1, 0)];
        if (i >= 2) for (const j of allowed[i - 2]!) if (j !== k) from.push(at(prev, i - 1, j));
        const best = Math.max(...from);
        if (best > NEG) cur[i * C + k] = best + lp[t * C + k]! + (k === filler ? boost[i - 1]! : 0);
      }
    }
    prev = cur;
  }
  return Math.max(at(prev, n, 0), ...allowed[n - 1]!.map((k) => at(prev, n, k)));
}

/** Noisy posteriors of `steps` steps: one class favoured per step, by `sharpness` (log units). */
function noisyPosteriors(steps: number, sharpness: number, rand: () => number): LinePosteriors {
  const probs = new Float32Array(steps * C);
  for (let t = 0; t < steps; t++) {
    const peak = Math.floor(rand() * C);
    let sum = 0;
    for (let k = 0; k < C; k++) {
      const v = Math.exp((k === peak ? sharpness : 0) + 2 * rand());
      probs[t * C + k] = v;
      sum += v;
    }
    for (let k = 0; k < C; k++) probs[t * C + k]! /= sum;
  }
  return { probs, steps, classes: C };
}

/**
 * The decoder visits only the band of states that lie on some path from the first step to the
 * last; it must find the best path the full computation finds, at any line length, including
 * exactly as many steps as characters (the band is then a single diagonal).
 */
describe('constrained decoding over the band of reachable states', () => {
  it('scores the best path as the plain Viterbi over every state does', () => {
    const rand = rng(17);
    const lines = positionSets('TD3');
    for (let c = 0; c < 12; c++) {
      const sets = lines[c % 2]!;
      const steps = sets.length + [0, 1, 5, 40, 100][c % 5]!;
      const posts = noisyPosteriors(steps, c % 2 ? 8 : 2, rand);
      const fillerWeight = c % 3 === 0 ? 3 : 1;
      const decoded = decodeConstrained(posts, sets, { fillerWeight });
      expect(decoded).not.toBeNull();
      expect(decoded!.text).toHaveLength(sets.length);
      expect(decoded!.logProb).toBe(plainBestScore(posts, sets, fillerWeight));
    }
    const sets = lines[0]!;
    expect(decodeConstrained(noisyPosteriors(sets.length - 1, 4, rand), sets)).toBeNull();
  });
});
