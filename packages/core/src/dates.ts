/**
 * Calendar dates as ISO strings (`YYYY-MM-DD`), always in UTC: "valid at the verification
 * date" is decided on the UTC date of the verification (spec, expiry check).
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar date written `YYYY-MM-DD` (rejects 2023-02-30). */
export function isIsoDate(value: string | null | undefined): value is string {
  if (!value) return false;
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** The UTC calendar date of an instant, `YYYY-MM-DD`. */
export function utcDateOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/**
 * Adds whole years to an ISO date. 29 February falls back to 28 February in a non-leap
 * target year (a card issued on 29 Feb 2020 is valid until 28 Feb 2025, never into March).
 */
export function addYears(iso: string, years: number): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const targetYear = y + years;
  const lastDay = new Date(Date.UTC(targetYear, m, 0)).getUTCDate();
  const day = Math.min(d, lastDay);
  return `${String(targetYear).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * Century windows for the two-digit MRZ years. A date of birth is never in the future, so
 * it is the latest candidate not after today. An expiry date may lie in the past (expired
 * documents are presented too) or in the future, but no travel document or identity card
 * is issued for more than about 10-15 years: the expiry is read in the century that puts it
 * at most `EXPIRY_MAX_YEARS_AHEAD` years after today, otherwise the century before.
 */
export const EXPIRY_MAX_YEARS_AHEAD = 20;

/** `YYMMDD` → `YYYY-MM-DD` in the given century, or null when not a real date. */
function withCentury(yymmdd: string, century: number): string | null {
  if (!/^\d{6}$/.test(yymmdd)) return null;
  const iso = `${century}${yymmdd.slice(0, 2)}-${yymmdd.slice(2, 4)}-${yymmdd.slice(4, 6)}`;
  return isIsoDate(iso) ? iso : null;
}

/** Date of birth `YYMMDD` → ISO; the latest century that does not put the birth after today. */
export function mrzBirthDateToIso(yymmdd: string, now: Date): string | null {
  const today = utcDateOf(now);
  const thisCentury = Math.floor(now.getUTCFullYear() / 100);
  for (const century of [thisCentury, thisCentury - 1]) {
    // A null candidate is an impossible date in that century (29 Feb 2100): try the previous one.
    const candidate = withCentury(yymmdd, century);
    if (candidate !== null && candidate <= today) return candidate;
  }
  return null;
}

/** Expiry `YYMMDD` → ISO; at most `EXPIRY_MAX_YEARS_AHEAD` years after today (see above). */
export function mrzExpiryDateToIso(yymmdd: string, now: Date): string | null {
  const thisCentury = Math.floor(now.getUTCFullYear() / 100);
  const limit = addYears(utcDateOf(now), EXPIRY_MAX_YEARS_AHEAD);
  for (const century of [thisCentury + 1, thisCentury, thisCentury - 1]) {
    const candidate = withCentury(yymmdd, century);
    if (candidate !== null && candidate <= limit) return candidate;
  }
  return null;
}

/** ISO `YYYY-MM-DD` → `YYMMDD` as printed in an MRZ. */
export function isoToMrzDate(iso: string): string {
  return iso.slice(2, 4) + iso.slice(5, 7) + iso.slice(8, 10);
}
