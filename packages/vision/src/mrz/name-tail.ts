import { MRZ_LAYOUTS, type MrzFormat } from '@idv/core';
import type { ConstrainedLine } from './constrained-decode.ts';
import { withFillers } from './filler-k.ts';

/**
 * Stray letters in the name field's padding (issue 13). ICAO 9303 writes a name field as the
 * primary identifier, '<<', the secondary identifier's parts joined by single '<', then fillers
 * to the end: a name field holds at most one '<<' between name parts. On blurred captures the
 * last filler or two of the line, at the crop's edge, come out as a round letter
 * (`MARIAM<<<<<<<<<<<<O`, `HAWA<<<<…<<O`, a card's `IBRAHIM<<<<<<<<<I`): no check digit covers
 * the names, so such a reading passes every check with a name part that cannot be there.
 *
 * The rule: after the field's last run of two or more fillers, when that run is not the field's
 * first (the one after the surname), at most MAX_STRAY letters standing before the line's end
 * are the padding. A longer tail is left as read: a dropped letter read as '<' can make a
 * second '<<' inside a real name (`JEAN<<APTISTE`), and turning the rest of the name into
 * fillers would only make a wrong reading worse. A single '<<' is never touched (a surname alone
 * followed by one given name is the ordinary case).
 */
const MAX_STRAY = 2;

/** Positions (in the name field's line) of letters standing where only padding may stand. */
export function strayNamePositions(text: string, format: MrzFormat): number[] {
  const { name } = MRZ_LAYOUTS[format];
  const field = text.slice(name.start, name.end);
  const doubles = [...field.matchAll(/<{2,}/g)];
  if (doubles.length < 2) return [];
  // A run touching the field's start is padding before any name, not the surname's separator.
  const separators = doubles.filter((m) => m.index! > 0);
  if (separators.length < 2) return [];
  const last = separators[separators.length - 1]!;
  const tailStart = last.index! + last[0].length;
  const letters: number[] = [];
  for (let i = tailStart; i < field.length; i++) if (field[i] !== '<') letters.push(name.start + i);
  return letters.length > 0 && letters.length <= MAX_STRAY ? letters : [];
}

/** The name line with its stray letters turned into fillers; `cleared` lists the positions. */
export function clearStrayNameLetters(
  lines: ConstrainedLine[],
  format: MrzFormat,
): { lines: ConstrainedLine[]; cleared: number[] } {
  const { name } = MRZ_LAYOUTS[format];
  const line = lines[name.line];
  if (!line) return { lines, cleared: [] };
  const cleared = strayNamePositions(line.text, format);
  if (cleared.length === 0) return { lines, cleared };
  const mended = withFillers(line, new Set(cleared));
  return { lines: lines.map((l, i) => (i === name.line ? mended : l)), cleared };
}
