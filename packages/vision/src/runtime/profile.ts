/**
 * A profile of the heavy operations of an analysis: every model run (with its input size) and
 * every image decode or resize, with its wall time. Off by default (one boolean test per
 * operation); `npm run bench -- profile` switches it on around one analysis at a time, so the
 * events belong to that analysis. Never used to decide anything: measurement only.
 */

export type ProfileKind = 'model' | 'decode' | 'resize';

export interface ProfileEvent {
  kind: ProfileKind;
  /** The model key (ocr-det, blazeface…) or the image operation (normalize, upscale…). */
  name: string;
  /** The input size: tensor dims for a model, pixels for an image operation. */
  detail: string;
  ms: number;
}

let sink: ProfileEvent[] | null = null;

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

/** Runs `fn`, recording its wall time when a profile is being taken. */
export async function profiled<T>(
  kind: ProfileKind,
  name: string,
  detail: string | (() => string),
  fn: () => Promise<T>,
): Promise<T> {
  if (!sink) return fn();
  const t = performance.now();
  try {
    return await fn();
  } finally {
    sink?.push({
      kind,
      name,
      detail: typeof detail === 'string' ? detail : detail(),
      ms: performance.now() - t,
    });
  }
}
