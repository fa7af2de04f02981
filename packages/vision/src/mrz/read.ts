import { MRZ_LAYOUTS, type MrzDigitCheck, type MrzFormat, type ParsedMrz } from '@idv/core';
import type { NormalizedImage } from '../image/normalize.ts';
import type { RgbImage } from '../image/raster.ts';
import { readDocumentPage } from '../ocr/focus.ts';
import { mrzRowOcrDeferred, type PageReading } from '../ocr/page.ts';
import { noteDecision } from '../runtime/profile.ts';
import { type CascadeStop, cascadeStop, complete, modelSure } from './cascade-stop.ts';
import { deferredBlocks, settleBlock } from './deferred-rows.ts';
import { mrzLinePosteriors } from './line-model.ts';
import {
  codeFitsFormat,
  type FoundMrz,
  type MrzRow,
  mrzCandidates,
  passportAsCard,
  plausible,
} from './locate.ts';
import { type ModelMrzReading, type MrzRecogniser, pageMrzLines, readMrzBlock } from './model-read.ts';
import { nameLineDoubtful, nameLineIndex, refineNameLine } from './name.ts';
import { rereadMrz } from './reread.ts';
import { blockInkChars } from './row-extent.ts';
import { smallGlyphs } from './small-glyphs.ts';

export interface MrzReading {
  lines: string[];
  format: MrzFormat;
  parsed: ParsedMrz;
  /** True when check-digit guided substitutions changed the raw reading. */
  corrected: boolean;
  /** Mean recogniser confidence over the MRZ characters, 0..1. */
  confidence: number;
  /** The raw restricted readings before correction (for diagnostics). */
  raw: string[];
  /** Indexes in `page.lines` of the lines that make up the MRZ. */
  lineIndexes: number[];
}

/** Candidate bands given a dedicated re-reading when the page reading is not already perfect. */
const REREAD_CANDIDATES = 2;

/** The reading of an MRZ (from the page, or re-read) found on the page's rows `rows`. */
function readingOf(
  found: Pick<FoundMrz, 'lines' | 'format' | 'parsed' | 'corrected' | 'confidence'>,
  rows: FoundMrz['rows'],
): MrzReading {
  return {
    lines: found.lines,
    format: found.format,
    parsed: found.parsed,
    corrected: found.corrected,
    confidence: Math.min(1, Math.max(0, found.confidence)),
    raw: rows.map((r) => r.mrz.text),
    lineIndexes: rows.flatMap((r) => r.parts),
  };
}

/**
 * The MRZ of an already-read page, or null when the page has none. A page reading that already
 * passes every check digit with exact line lengths is taken as is (the common case: no extra
 * cost); otherwise the best candidate bands are re-read (see reread.ts). Then, when the line no
 * check digit covers (the names) was read with doubt, it gets a vote of several readings (name.ts).
 */
export async function mrzFromPage(img: RgbImage, page: PageReading): Promise<MrzReading | null> {
  const settled = await settledByModel(img, page);
  if (settled?.reading) return settled.reading;
  // Every row the MRZ model did not settle is read now: the page's other readers (printed
  // fields, wording, legibility, tamper) and the full cascade below need every line's text.
  await page.readDeferred();
  const read = await mrzFromReadPage(img, page);
  return read ?? (settled?.small ? votedSmall(img, page, settled.small) : null);
}

/** A block of small glyphs the MRZ model read surely, left to the vote (smallGlyphs). */
interface SmallBlock {
  rows: MrzRow[];
  format: MrzFormat;
  first: ModelMrzReading;
}

/**
 * The vote on a small-glyph block the page reading did not locate (its PP-OCR rows too poor to
 * make a candidate, so chooseMrz never saw it): both recognisers read it as the cascade's vote
 * does, and the model's sure reading stands only when the vote's leaves a check failing (the
 * cascade's rule too: the model's reading wins with fewer failing checks).
 */
async function votedSmall(img: RgbImage, page: PageReading, b: SmallBlock): Promise<MrzReading> {
  noteDecision('mrz-cascade', 'voted: small glyphs');
  const vote = await readMrzBlock(img, page, b.rows, b.format, 'both');
  const chosen = vote && complete(vote) && plausible(vote) && looksLikeMrz(b.rows, vote) ? vote : b.first;
  return constrainedReading(chosen, b.rows);
}

/**
 * The MRZ of a page whose MRZ-like rows were left unread (page.ts deferMrzRows), when the MRZ
 * model alone reads a block of them surely (cascade-stop.ts modelSure), as the cascade would
 * stop on it: the rows' PP-OCR reading is then never made. A sure block of small glyphs is not
 * settled but returned as `small`, for the vote. Only a sure reading stops here; the
 * check-digit stop weighs the rows' PP-OCR reading as a witness, so anything less goes the full
 * way with it. Without the page reading's fillers, looksLikeMrz asks for two check digits over
 * real content.
 */
async function settledByModel(
  img: RgbImage,
  page: PageReading,
): Promise<{ reading?: MrzReading; small?: SmallBlock } | null> {
  const readers = configuredReaders();
  if (readers.length !== 1 || readers[0] !== 'cascade' || !page.lines.some((l) => l.deferred)) return null;
  let small: SmallBlock | undefined;
  for (const block of deferredBlocks(img, page).slice(0, REREAD_CANDIDATES)) {
    // The first crops only: the extra crops' vote is the full cascade's (a reading they would
    // make sure goes the full way, as before deferring, at the cost of these first crops).
    const first = await readMrzBlock(img, page, block.rows, block.format, 'model', true);
    if (!first || !modelSure(first) || !looksLikeMrz(block.rows, first)) continue;
    // The decoder lets a card's code start with P (positions.ts CARD_FIRST): such a reading is a
    // passport's rows cut as a card's, never settled.
    if (!codeFitsFormat(first.lines[0]!, first.format)) continue;
    // Small glyphs: the model's sureness is not enough, the full cascade votes on the block.
    if (smallGlyphs(block.rows)) {
      small ??= { rows: block.rows, format: block.format, first };
      continue;
    }
    noteDecision('mrz-cascade', 'stopped sure');
    settleBlock(page, block.rows, first);
    return { reading: constrainedReading(first, block.rows) };
  }
  return small ? { small } : null;
}

/** mrzFromPage on a page whose every line is read. */
async function mrzFromReadPage(img: RgbImage, page: PageReading): Promise<MrzReading | null> {
  const chosen = await chooseMrz(img, page);
  if (!chosen) return null;
  const { rows, reading } = chosen;
  // A format-constrained reading already has exact lengths and letters-or-filler names.
  if (chosen.constrained) return reading;
  const nameRow = rows[nameLineIndex(reading.format)];
  if (!nameRow || !nameLineDoubtful(nameRow.mrz, reading.format)) return reading;
  const refined = await refineNameLine(img, page, rows, reading.format, {
    lines: reading.lines,
    parsed: reading.parsed,
    corrected: reading.corrected,
  });
  return { ...reading, lines: refined.lines, parsed: refined.parsed };
}

/**
 * Which readings of a candidate block compete (env IDV_MRZ_READER, for the evaluation):
 * `legacy` the page reading and its re-reading corrected by correct.ts; `ppocr` / `model` add
 * format-constrained readings (model-read.ts) by PP-OCRv4 or the project's MRZ model; `both` one
 * reading of both recognisers voted position by position; `either` the two readings competing;
 * `cascade` (the default) the MRZ model alone when its reading is sure or its check digits decide
 * it (cascade-stop.ts), else `both`.
 */
export type MrzReaderPlan = MrzRecogniser | 'cascade';

export function configuredReaders(): MrzReaderPlan[] {
  const v = process.env.IDV_MRZ_READER ?? DEFAULT_READER;
  if (v === 'legacy') return [];
  if (v === 'cascade') return ['cascade'];
  if (v === 'both') return ['both'];
  if (v === 'either') return ['model', 'ppocr'];
  return v === 'model' ? ['model'] : ['ppocr'];
}
const DEFAULT_READER = 'cascade';

/**
 * The cascade's stops (env IDV_MRZ_STOP, for the evaluation and the bench): `checks` (the
 * default) a sure reading or one its check digits decide; `sure` only a sure reading, the rule
 * before check digits could decide (to measure what they save and cost). Either stop gives way
 * to the vote on small glyphs (small-glyphs.ts).
 */
function configuredStop(s: CascadeStop, rows: MrzRow[]): CascadeStop {
  if (s.stop === 'checks' && process.env.IDV_MRZ_STOP === 'sure')
    return { stop: null, reason: 'checks stop off' };
  if (s.stop && smallGlyphs(rows)) return { stop: null, reason: 'small glyphs' };
  return s;
}

/** Loads the MRZ model when a configured reader uses it (its first run costs the session's creation). */
export async function warmUpMrz(): Promise<void> {
  if (!configuredReaders().some((r) => r !== 'ppocr')) return;
  await mrzLinePosteriors([{ data: new Float32Array(32 * 600).fill(0.8), width: 600 }]);
}

/**
 * Whether the page reading's row lengths support decoding the rows as `format`: the constrained
 * decoder always returns lines of the format's length and shape, so it must not be handed rows
 * of another format (two rows of a TD1 card decoded as a TD2 would be an invented MRZ). The rows'
 * median length must be the nearest format length of all formats and within MAX_SHORTFALL of it
 * (readers lose fillers, so shorter is tolerated, not longer).
 */
const MAX_SHORTFALL = 6;
function fitsFormat(rows: MrzRow[], format: MrzFormat): boolean {
  const lengths = rows.map((r) => r.mrz.text.length).sort((a, b) => a - b);
  const median = lengths[Math.floor(lengths.length / 2)]!;
  const n = MRZ_LAYOUTS[format].lineLength;
  if (median < n - MAX_SHORTFALL) return false;
  // Every other format's length counts, whatever its line count: a page reading may miss one row
  // of a block (two 30-character rows seen of a TD1 card's three), and rows of TD1 length must
  // not be stretched into a 36-character TD2 by the constrained decoder.
  const others = (Object.keys(MRZ_LAYOUTS) as MrzFormat[]).filter(
    (f) => f !== format && !passportAsCard(rows[0]!.mrz.text, f),
  );
  return others.every((f) => Math.abs(median - MRZ_LAYOUTS[f].lineLength) >= Math.abs(median - n));
}

/**
 * The guard against inventing an MRZ. Every reader here returns lines of the format's exact
 * shape (the constrained decoder by construction, correct.ts by padding and class repair), so a
 * block of printed capitals (a card's title lines, a caption) can come out MRZ-shaped with check
 * digits holding by chance or by repair. What a real MRZ has and such text has not: fillers in
 * the page reading itself (every MRZ has '<<' in its names and filler runs), rows of about the
 * format's length before any constraint, and check digits that hold over real content. Only
 * such checks count: a date check only when the date is a real date, no check over fillers
 * alone (an empty personal number's check holds on anything). Two of them holding (about 3 % by
 * chance on random text) suffice alone; fewer need the fillers and the lengths as well.
 */
const MIN_RAW_FILLERS = 2;
function looksLikeMrz(rows: MrzRow[], m: { lines: string[]; format: MrzFormat; parsed: ParsedMrz }): boolean {
  const p = m.parsed;
  const meaningful = (k: MrzDigitCheck) =>
    k.name !== 'composite' &&
    !(k.name === 'date_of_birth' && p.dateOfBirth === null) &&
    !(k.name === 'date_of_expiry' && p.dateOfExpiry === null) &&
    k.ranges.some((r) => /[^<]/.test(m.lines[r.line]?.slice(r.start, r.end) ?? ''));
  const held = p.checks.filter((k) => k.valid && meaningful(k)).length;
  if (held >= 2) return true;
  const fillers = rows.reduce((n, r) => n + [...r.mrz.text].filter((ch) => ch === '<').length, 0);
  const n = MRZ_LAYOUTS[m.format].lineLength;
  const lengthsNear = rows.every((r) => r.mrz.text.length >= n - MAX_SHORTFALL);
  return fillers >= MIN_RAW_FILLERS && lengthsNear && (held >= 1 || p.fieldsWellFormed);
}

interface Chosen {
  rows: MrzRow[];
  reading: MrzReading;
  /** True when the reading comes from a format-constrained decoding. */
  constrained?: boolean;
}

function constrainedReading(r: ModelMrzReading, rows: MrzRow[]): MrzReading {
  return {
    lines: r.lines,
    format: r.format,
    parsed: r.parsed,
    corrected: r.corrected,
    confidence: Math.min(1, Math.max(0, r.confidence)),
    raw: r.decoded.map((d) => d.text),
    lineIndexes: rows.flatMap((row) => row.parts),
  };
}

/**
 * A legacy reading (the page's, or its re-reading, corrected by correct.ts) the guards accepted
 * for a block, or in its place the block's constrained reading when that fails no more checks.
 * A constrained reading must have a check digit of its own holding to be chosen on its own (its
 * lines always have the format's shape); on a document whose printed check digits fail (a
 * specimen, a forgery) none holds, and the legacy reading then won on equal failing checks with
 * its fillers read as K and its lengths padded. Once the guards have taken the block for an MRZ
 * through the legacy reading, the constrained reading of the same rows is the better reading of
 * it: the rule the loop states (legacy readings replace constrained ones only with fewer failing
 * checks) then holds there too, and nothing is returned that the guards did not accept.
 */
function legacyOrConstrained(
  rows: MrzRow[],
  legacy: MrzReading,
  legacyInvalid: number,
  constrained: ModelMrzReading | null,
): Chosen {
  if (constrained && constrained.invalidCount <= legacyInvalid) {
    noteDecision('mrz-cascade', 'constrained reading in place of the legacy one');
    return { rows, reading: constrainedReading(constrained, rows), constrained: true };
  }
  return { rows, reading: legacy };
}

async function chooseMrz(img: RgbImage, page: PageReading): Promise<Chosen | null> {
  const candidates = mrzCandidates(page.lines, (rows) => blockInkChars(img, page, rows));
  const readers = configuredReaders();
  const first = candidates[0];
  if (readers.length === 0 && first?.found && complete(first.found) && plausible(first.found))
    return { rows: first.rows, reading: readingOf(first.found, first.found.rows) };
  // Fewest failing check digits wins (counts are comparable across formats, valid ones are not:
  // a TD3 has one check more than a TD2), then the page reading's own candidate order.
  let best: Chosen | null = null;
  let bestInvalid = Number.POSITIVE_INFINITY;
  for (const c of candidates.slice(0, REREAD_CANDIDATES)) {
    // This candidate's constrained reading that no check digit of its own supports (see below).
    let unchecked: ModelMrzReading | null = null;
    // Format-constrained readings first: on equal check-digit counts they win (exact lengths,
    // position classes), the legacy readings only replace them with fewer failing checks.
    for (const plan of c.extended || fitsFormat(c.rows, c.format) ? readers : []) {
      let recs: MrzRecogniser[] = plan === 'cascade' ? [] : [plan];
      let first: ModelMrzReading | null = null;
      if (plan === 'cascade') {
        first = await readMrzBlock(img, page, c.rows, c.format, 'model');
        const stop = first
          ? configuredStop(cascadeStop(first, pageMrzLines(c.rows, c.format)), c.rows)
          : null;
        if (first && stop?.stop && looksLikeMrz(c.rows, first)) {
          noteDecision('mrz-cascade', stop.stop === 'sure' ? 'stopped sure' : 'stopped by checks');
          return { rows: c.rows, reading: constrainedReading(first, c.rows), constrained: true };
        }
        const why = !first ? 'no model reading' : stop?.stop === null ? stop.reason : 'not MRZ-like';
        noteDecision('mrz-cascade', `voted: ${why}`);
        // Unsure: both recognisers voted, as `both` reads; the model's own reading competes
        // after it (it only wins with fewer failing checks).
        recs = ['both'];
      }
      const readings: (ModelMrzReading | null)[] = [];
      for (const rec of recs) readings.push(await readMrzBlock(img, page, c.rows, c.format, rec));
      if (first) readings.push(first);
      for (const r of readings) {
        // Constrained lines always have the format's shape, so "every field well formed" proves
        // nothing here: a constrained reading needs a check digit of its own to hold.
        const checked = r?.parsed.checks.some((k) => k.valid && k.name !== 'composite');
        if (r && checked && plausible(r) && looksLikeMrz(c.rows, r) && r.invalidCount < bestInvalid) {
          bestInvalid = r.invalidCount;
          best = { rows: c.rows, reading: constrainedReading(r, c.rows), constrained: true };
        }
        if (r && !checked && plausible(r) && r.invalidCount < (unchecked?.invalidCount ?? Infinity))
          unchecked = r;
      }
      if (best && complete(best.reading)) return best;
    }
    if (c.found && plausible(c.found) && looksLikeMrz(c.rows, c.found)) {
      const invalid = c.found.parsed.checks.filter((k) => !k.valid).length;
      if (invalid < bestInvalid) {
        best = legacyOrConstrained(c.rows, readingOf(c.found, c.found.rows), invalid, unchecked);
        bestInvalid = invalid;
      }
    }
    const again = await rereadMrz(img, page, c.rows, c.format);
    if (again && plausible(again) && looksLikeMrz(c.rows, again) && again.invalidCount < bestInvalid) {
      bestInvalid = again.invalidCount;
      best = legacyOrConstrained(c.rows, readingOf(again, c.rows), again.invalidCount, unchecked);
    }
    if (best && complete(best.reading)) break;
  }
  return best;
}

/** Reads only the MRZ of a photo (chip access key endpoint). */
export async function readMrzOnly(img: NormalizedImage): Promise<{ lines: string[] } | null> {
  const view = await readDocumentPage(img, { deferMrzRows: mrzRowOcrDeferred() });
  const mrz = await mrzFromPage(view.image, view.page);
  return mrz ? { lines: mrz.lines } : null;
}
