import { MRZ_LAYOUTS, type MrzFormat } from '@idv/core';
import type { RgbImage } from '../image/raster.ts';
import type { PageReading } from '../ocr/page.ts';
import { type CorrectedMrz, correctMrz, type MrzReadingLine } from './correct.ts';
import { type MrzRow, plausible } from './locate.ts';
import { type CropVariant, readBlockLines } from './reread.ts';
import { voteReadings } from './vote.ts';

/**
 * A second opinion on the MRZ line that no check digit covers (TD3/TD2 line 1: document code,
 * state and names; TD1 line 3: names). When its reading is doubtful, the line is re-read with a
 * few crop variants and the readings are voted on character by character (vote.ts).
 */

/**
 * A name-line character read below this probability makes the line doubtful. On the development
 * set the characters next to the name-line misreads (a filler read as K, a dropped I) were read
 * at 0.54–0.68, while 21 of 27 correct name lines had nothing below 0.7 (the separators '<' of
 * clean lines often sit at 0.7–0.85, so a higher threshold re-reads most lines for nothing: the
 * vote costs four recognitions of one line). The trailing run of fillers is not considered (its
 * probabilities are often low and its length is repaired anyway).
 */
const NAME_DOUBT = 0.7;

/**
 * Crop variants for the vote: the stretch changes how many recogniser steps a character gets
 * (1.3 tends to drop narrow letters, 2.0 to read fillers as K), the height changes the margin;
 * their errors differ, which is what voting needs. Four extra readings of one line.
 */
const VARIANTS: CropVariant[] = [
  { k: 1.0, stretch: 1.3 },
  { k: 1.0, stretch: 1.6 },
  { k: 1.25, stretch: 1.6 },
  { k: 1.0, stretch: 2.0 },
];

/**
 * Characters kept after the last letter when only the names' part of the line is re-read: the
 * page reading may have dropped a letter or two, and the crop must not cut through the last one.
 */
const TAIL_CHARS = 5;

/** Index of the line no check digit covers. */
export function nameLineIndex(format: MrzFormat): number {
  return MRZ_LAYOUTS[format].name.line;
}

/** Whether the name line's reading has a doubtful character before its trailing fillers. */
export function nameLineDoubtful(line: MrzReadingLine, format: MrzFormat): boolean {
  const L = MRZ_LAYOUTS[format];
  if (Math.abs(line.text.length - L.lineLength) > 2) return true;
  const lastLetter = line.text.search(/[A-Z0-9]<*$/);
  const end = lastLetter < 0 ? line.text.length : Math.min(line.text.length, lastLetter + 2);
  for (let i = 0; i < end; i++) if ((line.probs[i] ?? 0) < NAME_DOUBT) return true;
  return false;
}

/**
 * Re-reads and votes the name line of an MRZ already read and corrected (`current`), returning
 * the corrected MRZ with the voted name line, or `current` when the vote changes nothing, would
 * change which check digits hold or would make the MRZ implausible (locate.ts plausible). The
 * page's own reading of the line is one of the voters; `extra` adds readings the caller already
 * has.
 */
export async function refineNameLine(
  img: RgbImage,
  page: PageReading,
  rows: MrzRow[],
  format: MrzFormat,
  current: CorrectedMrz,
  extra: MrzReadingLine[] = [],
): Promise<CorrectedMrz> {
  const li = nameLineIndex(format);
  const row = rows[li];
  if (!row) return current;
  // Only the part of the line that holds names is re-read: the filler padding after them costs
  // recognition time and carries nothing (the corrector restores the line's length).
  const L = MRZ_LAYOUTS[format];
  const lastLetter = row.mrz.text.search(/[A-Z0-9]<*$/);
  const share =
    Math.abs(row.mrz.text.length - L.lineLength) > 2 || lastLetter < 0
      ? 1
      : Math.min(1, (lastLetter + 1 + TAIL_CHARS) / L.lineLength);
  const [readings] = await readBlockLines(img, page, rows, [li], VARIANTS, share);
  const vote = voteReadings([row.mrz, ...extra, ...readings!]);
  if (!vote.text) return current;
  // A partial read ends early: the rest of the line is the filler padding that was not read.
  const missing = Math.max(0, L.lineLength - vote.text.length);
  const voted =
    share < 1
      ? { text: vote.text + '<'.repeat(missing), probs: [...vote.probs, ...Array(missing).fill(0.5)] }
      : vote;
  // The other lines are already corrected; they go back through the corrector unchanged (their
  // checks hold or could not be repaired before), only the name line is normalised.
  const lines = current.lines.map((text, i) => (i === li ? voted : { text, probs: [...text].map(() => 1) }));
  const fixed = correctMrz(lines, format);
  if (!fixed || fixed.parsed.format !== format) return current;
  const sameChecks = fixed.parsed.checks.every((c, i) => c.valid === current.parsed.checks[i]?.valid);
  if (!sameChecks) return current;
  // The voted line holds the document code too (TD3, TD2): a vote of crops cut askew can give it
  // a letter its format never starts with (`ACSZSO…` for `P<NERSA…`); the reading then stays.
  if (!plausible(fixed)) return current;
  return { ...fixed, corrected: current.corrected };
}
