import type { TamperSignal } from '@idv/core';

/** Tamper signals as the evaluations print them: `type(severity strength field)`, comma-separated. */
export function describeSignals(signals: TamperSignal[], none = ''): string {
  return (
    signals.map((s) => `${s.type}(${s.severity} ${s.strength}${s.field ? ` ${s.field}` : ''})`).join(', ') ||
    none
  );
}

/** A source name made safe for a file name (evaluation images saved with `--save`). */
export const fileSlug = (s: string) => s.replace(/[^a-z0-9]+/gi, '_');
