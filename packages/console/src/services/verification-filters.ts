import type { Mode, VerificationFilter } from '@idv/store';

/** The list's query string as the form sends it (all strings, empty meaning "any"). */
export interface VerificationQuery {
  mode: Mode;
  filter: VerificationFilter;
  cursor?: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Reads the verifications list's filters; null when one is not a value the form offers (the
 * page answers 400). Dates are whole UTC days: `to` includes its day, so the store gets the
 * next midnight as its exclusive bound.
 */
export function parseVerificationQuery(
  query: Record<string, string>,
  defaultMode: Mode,
): VerificationQuery | null {
  const mode = query.mode || defaultMode;
  if (mode !== 'test' && mode !== 'live') return null;
  const filter: VerificationFilter = {};
  const verdict = query.verdict;
  if (verdict) {
    if (verdict !== 'verified' && verdict !== 'review' && verdict !== 'rejected') return null;
    filter.verdict = verdict;
  }
  const finalVerdict = query.final_verdict;
  if (finalVerdict) {
    if (finalVerdict !== 'verified' && finalVerdict !== 'rejected' && finalVerdict !== 'none') return null;
    filter.finalVerdict = finalVerdict;
  }
  if (query.from) {
    const from = dayStart(query.from);
    if (!from) return null;
    filter.from = from.toISOString();
  }
  if (query.to) {
    const to = dayStart(query.to);
    if (!to) return null;
    filter.to = new Date(to.getTime() + 86_400_000).toISOString();
  }
  if (filter.from && filter.to && filter.from >= filter.to) return null;
  const reference = query.reference?.trim();
  if (reference) {
    if (reference.length > 256) return null;
    filter.reference = reference;
  }
  return { mode, filter, cursor: query.cursor || undefined };
}

function dayStart(value: string): Date | null {
  if (!DATE.test(value)) return null;
  const date = new Date(`${value}T00:00:00.000Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value ? null : date;
}
