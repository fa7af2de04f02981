import { utcDateOf } from '../dates.ts';
import { type ParsedMrz, parseMrz } from '../mrz/parse.ts';
import type { Observations } from '../observations.ts';
import type { Check } from '../verification.ts';

/** What every check needs, computed once. */
export interface JudgeContext {
  obs: Observations;
  now: Date;
  /** The verification date, UTC, `YYYY-MM-DD`. */
  today: string;
  /** The MRZ as parsed (null when none was read or its shape is unknown). */
  mrz: ParsedMrz | null;
  /** The older Niger paper card: no MRZ, validity from the issue date, its own cap exception. */
  paperCard: boolean;
}

export function contextOf(obs: Observations, now: Date): JudgeContext {
  return {
    obs,
    now,
    today: utcDateOf(now),
    mrz: obs.mrz ? parseMrz(obs.mrz.lines, { now }) : null,
    paperCard: obs.document.layout === 'niger_paper_card',
  };
}

/** A check plus what the scoring rules need to know about it. */
export interface CheckOutcome {
  check: Check;
  /** A grave failure (score capped at 0.50): why, in English, for `scoring.caps`; else null. */
  grave: string | null;
  /** A rule setting the whole score to 0 (expired, similarity below 0.30): why; else null. */
  zero: string | null;
}
