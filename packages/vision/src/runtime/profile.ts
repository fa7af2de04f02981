import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A profile of the heavy operations of an analysis: every model run (with its input size), every
 * image decode or resize, and the steps that contain them, with their time; and the decisions
 * that choose how much work is done (the MRZ cascade's stop or vote, mrz/cascade-stop.ts) or
 * what a reading becomes (check-digit repairs kept or refused, mrz/check-repair.ts). Off by
 * default (one boolean test per operation); `npm run bench -- profile` switches it on around one
 * analysis at a time, so the events belong to that analysis. Never used to decide anything:
 * measurement only.
 */

export type ProfileKind = 'model' | 'decode' | 'resize' | 'step' | 'decision';

export interface ProfileEvent {
  kind: ProfileKind;
  /** The model key (ocr-det, blazeface…), the image operation (normalize, upscale…) or the step. */
  name: string;
  /** The input size: tensor dims for a model, pixels for an image operation; a decision's outcome. */
  detail: string;
  /**
   * Own time in ms: the wall time less that of the profiled operations run inside it (a step's
   * model runs are counted once, under the model). Zero for a decision.
   */
  ms: number;
  /** When it started, ms on the performance clock (orders the events of an analysis). */
  start: number;
}

let sink: ProfileEvent[] | null = null;

/** The operation being timed in this async context: its inner operations' wall time adds up here. */
interface Frame {
  nestedMs: number;
}
const current = new AsyncLocalStorage<Frame>();

/** Starts recording (drops anything recorded before). */
export function startProfile(): void {
  sink = [];
}

/** Stops recording and returns the events since startProfile. */
export function stopProfile(): ProfileEvent[] {
  const events = sink ?? [];
  sink = null;
  return events;
}

/**
 * Runs `fn`, recording its own time when a profile is being taken. Operations profiled inside
 * `fn` (in its async context) are subtracted from it, so a step and the model runs it makes
 * are not counted twice; operations run side by side (Promise.all) each count their own wall
 * time, which then includes waiting for the others.
 */
export async function profiled<T>(
  kind: ProfileKind,
  name: string,
  detail: string | (() => string),
  fn: () => Promise<T>,
): Promise<T> {
  if (!sink) return fn();
  const parent = current.getStore();
  const frame: Frame = { nestedMs: 0 };
  const start = performance.now();
  try {
    return await current.run(frame, fn);
  } finally {
    const wall = performance.now() - start;
    if (parent) parent.nestedMs += wall;
    sink?.push({
      kind,
      name,
      detail: typeof detail === 'string' ? detail : detail(),
      ms: Math.max(0, wall - frame.nestedMs),
      start,
    });
  }
}

/** Records a decision (what it chose and why) when a profile is being taken. */
export function noteDecision(name: string, detail: string): void {
  sink?.push({ kind: 'decision', name, detail, ms: 0, start: performance.now() });
}

/** How many times each decision of `name` was taken in `events`, most frequent first. */
export function decisionCounts(events: ProfileEvent[], name: string): [string, number][] {
  const counts = new Map<string, number>();
  for (const e of events) {
    if (e.kind === 'decision' && e.name === name) counts.set(e.detail, (counts.get(e.detail) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1]);
}
