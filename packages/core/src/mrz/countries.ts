import { states } from 'mrz';

/**
 * ICAO codes that the `mrz` library's table (ISO 3166 + ICAO additions) lacks but 9303
 * uses: the specimen state Utopia and Germany's one-letter code.
 */
const EXTRA: Record<string, string> = { UTO: 'Utopia (ICAO specimen)', D: 'Germany' };

/** English name of an ICAO state or organisation code (`NER`, `D<<`), or null when unknown. */
export function icaoStateName(code: string): string | null {
  const clean = code.replace(/</g, '');
  return states[clean] ?? EXTRA[clean] ?? null;
}
