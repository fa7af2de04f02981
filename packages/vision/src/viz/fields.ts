import { emptyPrintedFields, type PrintedFields } from '@idv/core';
import type { TextLine } from '../ocr/page.ts';
import { datedLines, orderDates } from './date-order.ts';
import { type Century, parsePrintedDate } from './dates.ts';
import {
  casedTail,
  garbledLabel,
  garbledLabelLine,
  gluedNames,
  labelOnly,
  mixedCaseOnly,
  withoutLabelRest,
  withoutMixedCaseLead,
} from './label-match.ts';
import { type Field, LABELS } from './labels.ts';
import { continuedOnRow, numberByShape } from './number-shape.ts';
import { editDistance, fold, foldKeepCase, fuzzyFind, tolerance } from './text.ts';

/**
 * Printed fields (visual inspection zone), found by their labels in French and English (and the
 * bilingual "English/Français" labels of passports). A value is either after the label on the
 * same line ("Nom : DIALLO") or on the line just below the label, starting near the label's
 * left edge (passport layout). Everything is compared folded (upper case, no accents).
 */

/** The document number's labels (findLabel: a value may be glued to them). */
const NUMBER_LABELS: ReadonlySet<string> = new Set(LABELS.document_number);

/** Every label of every field, to tell a value line from the next label line. */
const ALL_LABELS = Object.values(LABELS).flat();

interface LabelHit {
  field: Field;
  line: number;
  /** Index in the folded line text right after the label. */
  end: number;
  /** Position of the label's start along the line (page frame x). */
  x: number;
  /** Found loosely (garbledLabelLine): the print is small or degraded. */
  garbled?: boolean;
}

/**
 * Labels up to 11 characters must match exactly as whole words ("NOM" must not match "NOMBRE",
 * "PASSPORT NO" must not match "PASSPORT OFFICE"); longer ones tolerate one OCR error per 8.
 */
function findLabel(text: string, label: string): { start: number; end: number } | null {
  if (label.length < 12) {
    // The words of a short label may be read run together ("DELIVREELE", "NE(E)LE"): a space in
    // the label is optional, the label must still be a whole word.
    const pattern = label.replace(/[()]/g, '\\$&').replace(/ /g, ' ?');
    // A number's label may be glued to its value, which starts with at most three letters
    // before a digit ("Passport NoZX5980714").
    const end = NUMBER_LABELS.has(label) ? '(?:(?![A-Z])|(?=[A-Z]{1,3}\\d))' : '(?![A-Z])';
    const m = new RegExp(`(^|[^A-Z])${pattern}${end}`).exec(text);
    if (!m) return null;
    const start = m.index + m[1]!.length;
    return { start, end: m.index + m[0].length };
  }
  // Spaces are left out of the comparison: small print merges or splits words ("NOMDE FAMILL")
  // and a space is then one of the few errors allowed.
  const at: number[] = [];
  let squashed = '';
  for (let i = 0; i < text.length; i++)
    if (text[i] !== ' ') {
      squashed += text[i];
      at.push(i);
    }
  const target = label.replace(/ /g, '');
  const end = fuzzyFind(squashed, target, Math.floor(label.length / 8));
  if (end <= 0) return null;
  return { start: at[Math.max(0, end - target.length)]!, end: at[end - 1]! + 1 };
}

function isLabelLine(text: string): boolean {
  return ALL_LABELS.some((l) => findLabel(text, l) !== null);
}

/**
 * A line that opens with a label read run into its value ("PRENOMSGIVENMAMESADAMA", which
 * findLabel misses for the missing word end): the line of that label, no name of another field's.
 */
function opensWithLabel(text: string): boolean {
  return ALL_LABELS.some((l) => l.length >= 5 && fuzzyPrefix(text, l) > 0);
}

/** Separators between a label and its value, and the plural or feminine mark of a label ("PRENOM(S)"). */
const LEAD = /^(?:[\s:./-]|\([SE]\))+/;

/**
 * Length of the prefix of `text` that is `label` read with at most one error per six letters,
 * spaces ignored (OCR merges "DATE OF BIRTH" into "DATEOFBIRTH" and reads "SURNAME" as
 * "SURMAME"); 0 when the text does not start with it.
 */
function fuzzyPrefix(text: string, label: string, gluedValue = false): number {
  // Small print merges "RN" into "M" ("SUMAME"): try the label that way too.
  if (label.includes('RN')) {
    const merged = fuzzyPrefixOf(text, label.replace(/RN/g, 'M'), gluedValue);
    if (merged > 0) return merged;
  }
  return fuzzyPrefixOf(text, label, gluedValue);
}

/**
 * `gluedValue`: a label read with an error may still end right before a capital, for a value
 * that is told from the label by its digits (a document number: "PSSPORT NOVB7390082", where
 * the label's word boundary would otherwise keep "PSSPORT NO" in the number).
 */
function fuzzyPrefixOf(text: string, label: string, gluedValue: boolean): number {
  const target = label.replace(/\s+/g, '');
  const allowed = tolerance(target);
  let squashed = '';
  let best = { n: 0, d: allowed + 1 };
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== ' ') squashed += text[i];
    if (squashed.length < target.length - allowed) continue;
    if (squashed.length > target.length + allowed) break;
    const d = editDistance(squashed, target);
    // A label ends where a word ends, unless it is read exactly: small print glues the value to
    // its label ("SURNAMEADAMOU"), and the longest window would then eat the value's first letter.
    const glued = gluedValue && /\d/.test(text.slice(i + 1, i + 4));
    if (/[A-Z]/.test(text[i + 1] ?? '') && squashed.length < target.length + allowed && d > 0 && !glued)
      continue;
    if (d < best.d) best = { n: i + 1, d };
  }
  return best.d <= allowed ? best.n : 0;
}

/** Strips what follows a label before its value: separators, the other language's label. */
function afterLabel(text: string, field: Field): string {
  let rest = text.replace(LEAD, '');
  // Bilingual labels: "Surname/ Nom", "Date of birth / Date de naissance", "Prénom(s) / Given names:".
  for (let pass = 0; pass < 2; pass++) {
    for (const l of LABELS[field]) {
      const hit = findLabel(rest, l);
      if (hit && hit.start <= 2) {
        rest = rest.slice(hit.end).replace(LEAD, '');
        continue;
      }
      const n = l.length >= 5 ? fuzzyPrefix(rest, l, field === 'document_number') : 0;
      if (n > 0) rest = rest.slice(n).replace(LEAD, '');
    }
  }
  return rest.trim();
}

/**
 * Where a printed value was read: the page (0 front, 1 back), the index of its line in the
 * lines given to `readPrintedFieldsWithSources`, and the span of the value along that line as
 * fractions of the line's text (0 = left end, 1 = right end). The span is proportional to the
 * character positions in the read text, so it is approximate (± a character).
 */
/**
 * Printed fields with the line each value was read from, and `unparsed`: where a field's label was
 * read with a value beside or under it that does not parse as the field's (a date with a letter in
 * it, "237CT 1989"), for fields left unread. The tamper step's glyph cue looks at those values: a
 * glyph pasted in from another font often breaks the value's reading as well as its line.
 */
export type PrintedRead = { fields: PrintedFields; sources: FieldSource[]; unparsed: FieldSource[] };

export interface FieldSource {
  field: Field;
  page: 0 | 1;
  line: number;
  start: number;
  end: number;
  /** An unparsed value's text as read (folded: capitals, no accents); absent on parsed ones. */
  text?: string;
}

export function readPrintedFields(front: TextLine[], back: TextLine[]): PrintedFields {
  return readPrintedFieldsWithSources(front, back).fields;
}

/** `readPrintedFields`, plus the line and span each value was read from (for tamper checks). */
export function readPrintedFieldsWithSources(front: TextLine[], back: TextLine[]): PrintedRead {
  const out = emptyPrintedFields();
  const sources: FieldSource[] = [];
  const unparsed: FieldSource[] = [];
  for (const [page, lines] of [front, back].entries()) {
    const folded = lines.map((l) => fold(l.text));
    const hits: LabelHit[] = [];
    folded.forEach((text, i) => {
      for (const field of Object.keys(LABELS) as Field[]) {
        // The earliest label of the field on the line: in "Date of birth/ Date de naissance"
        // the value sits under the start of the whole bilingual label.
        let first: { start: number; end: number } | null = null;
        for (const label of LABELS[field]) {
          const hit = findLabel(text, label);
          if (hit && (!first || hit.start < first.start)) first = hit;
        }
        if (!first) continue;
        const line = lines[i]!;
        const x = line.left + (line.length * first.start) / Math.max(1, text.length);
        hits.push({ field, line: i, end: first.end, x });
      }
    });
    // Lines in mixed case that no label matched are labels read with more errors ("NomSumme",
    // "PresGivennnes"): names are printed in capitals. A line near enough to one field's label
    // is that label, its value then looked for to its right and under it.
    folded.forEach((text, i) => {
      if (hits.some((h) => h.line === i) || /\d/.test(text)) return;
      if (!mixedCaseOnly(foldKeepCase(lines[i]!.text))) return;
      const field = garbledLabelLine(text);
      if (field) hits.push({ field, line: i, end: text.length, x: lines[i]!.left, garbled: true });
    });
    const labelLines = new Set(hits.map((h) => h.line));
    const sourceOf = (field: Field, value: { line: number; start: number }): FieldSource => {
      const text = folded[value.line]!;
      const n = Math.max(1, text.length);
      return {
        field,
        page: page as 0 | 1,
        line: value.line,
        start: value.start / n,
        end: valueEnd(field, text, value.start) / n,
      };
    };
    for (const hit of hits) {
      if (out[hit.field] !== null) continue;
      const found = valueFor(hit, lines, folded, labelLines);
      const value =
        found && NAME_FIELDS.has(hit.field) ? withoutMixedCaseLead(found, lines[found.line]!.text) : found;
      if (value && hit.garbled && NAME_FIELDS.has(hit.field) && gluedNames(value.text)) continue;
      const parsed = value ? parseValue(hit.field, value.text) : null;
      if (value === null || parsed === null) {
        const where = value ?? unparsedValueFor(hit, lines, folded, labelLines);
        if (where && !unparsed.some((u) => u.field === hit.field))
          unparsed.push({ ...sourceOf(hit.field, where), text: where.text });
        continue;
      }
      out[hit.field] = parsed;
      // A "number" without a digit is a label read as a value ("NUMERO DE DOCUMENT"): its box
      // would show the label, not a value, to the tamper checks.
      if (hit.field === 'document_number' && !/\d/.test(parsed)) continue;
      sources.push(sourceOf(hit.field, value));
    }
    // Labels read too poorly to be found above, before a colon ("NOMDETAMLE:BAMBA" on a small
    // scan): the line's head is matched loosely (garbledLabel), the value after the colon must
    // parse as the field's.
    for (const [i, text] of folded.entries()) {
      if (labelLines.has(i)) continue;
      const garbled = garbledLabel(text);
      if (!garbled || out[garbled.field] !== null) continue;
      const value = text.slice(garbled.end).trim();
      if (NAME_FIELDS.has(garbled.field) && (!isNameLike(value) || gluedNames(value))) continue;
      const parsed = parseValue(garbled.field, value);
      if (parsed === null || (garbled.field === 'document_number' && !/\d/.test(parsed))) continue;
      out[garbled.field] = parsed;
      const n = Math.max(1, text.length);
      sources.push({
        field: garbled.field,
        page: page as 0 | 1,
        line: i,
        start: garbled.end / n,
        end: valueEnd(garbled.field, text, garbled.end) / n,
      });
    }
  }
  // Dates whose labels were not read, told apart by their order in time (date-order.ts), when
  // the dates read by their labels agree with that order.
  const ordered = orderDates(datedLines([front, back]));
  if (ordered && DATE_FIELDS.every((f) => out[f] === null || out[f] === ordered[f].iso))
    for (const f of DATE_FIELDS) {
      if (out[f] !== null) continue;
      out[f] = ordered[f].iso;
      sources.push({ field: f, page: ordered[f].page, line: ordered[f].line, start: 0, end: 1 });
    }
  if (out.document_number === null) {
    const found = numberWithoutLabel(front) ?? numberWithoutLabel(back);
    if (found) {
      out.document_number = found.value;
      const n = Math.max(1, found.text.length);
      sources.push({
        field: 'document_number',
        page: found.page === front ? 0 : 1,
        line: found.line,
        start: found.start / n,
        end: found.end / n,
      });
    }
  }
  const read = withoutGluedNames(checkNumber({ fields: out, sources, unparsed: [] }, [front, back]));
  return { ...read, unparsed: unparsedLeft(read, unparsed) };
}

/**
 * The unparsed values of fields that stayed unread with no source: a field read from another line
 * (its label's second language, the dates' order) has its value's box already. A value that
 * parsed and was dropped later (names run together, a number of two readings) is not among them.
 */
export function unparsedLeft(read: Omit<PrintedRead, 'unparsed'>, unparsed: FieldSource[]): FieldSource[] {
  return unparsed.filter(
    (u) => read.fields[u.field] === null && !read.sources.some((s) => s.field === u.field),
  );
}

/**
 * Names read run together ("SOULEYMANEKARIM": a word of 12 letters or more, label-match.ts
 * gluedNames) are left unread: they differ from the MRZ's names, spaces included, and a name
 * read wrong fails viz_mrz_consistency as grave where an unread one does not.
 */
function withoutGluedNames(read: PrintedRead): PrintedRead {
  const glued = [...NAME_FIELDS].filter((f) => read.fields[f] !== null && gluedNames(read.fields[f]!));
  if (glued.length === 0) return read;
  const fields = { ...read.fields };
  for (const f of glued) fields[f] = null;
  return { ...read, fields, sources: read.sources.filter((s) => !glued.includes(s.field)) };
}

/**
 * The number read, continued on its row when the detector split it, then checked against its own
 * shape (number-shape.ts); dropped, its source with it, when the shape leaves two readings. A
 * continued number's source stays its first box (the tamper checks look at that one).
 */
function checkNumber(read: PrintedRead, pages: [TextLine[], TextLine[]]): PrintedRead {
  return withNumberChecked(read, pages, (value, at) => {
    const whole = at ? continuedOnRow(at.lines, at.index, value) : value;
    return whole === null ? null : numberByShape(whole);
  });
}

/**
 * The fields with the document number replaced by what `check` makes of it, given the lines of
 * the page it was read from and its line's index (null when its source is unknown). A number
 * checked to null loses its source too: the tamper checks look at a value's box, and there is no
 * value any more. `pages` are the front and back lines the sources index.
 */
export function withNumberChecked(
  read: PrintedRead,
  pages: readonly [readonly TextLine[], readonly TextLine[]],
  check: (value: string, at: { lines: readonly TextLine[]; index: number } | null) => string | null,
): PrintedRead {
  const value = read.fields.document_number;
  if (value === null) return read;
  const source = read.sources.find((s) => s.field === 'document_number');
  const checked = check(value, source ? { lines: pages[source.page], index: source.line } : null);
  if (checked === value) return read;
  return {
    ...read,
    fields: { ...read.fields, document_number: checked },
    sources: checked === null ? read.sources.filter((s) => s !== source) : read.sources,
  };
}

/**
 * A document number printed without one of the labels above: after a bare "N°" ("N° 28869JL91"
 * at the top right of Niger's paper card; "N°/No" on a card front), or a long run of digits on
 * its own (the Sahel card's 17-digit number). After "N°" the number must start with a digit and
 * hold at least 5, so that a word (or the "No" of a misread "N°/No") is not taken for it.
 */
function numberWithoutLabel(
  lines: TextLine[],
): { page: TextLine[]; line: number; value: string; text: string; start: number; end: number } | null {
  for (const [i, l] of lines.entries()) {
    const text = fold(l.text);
    const m =
      /(?:^|[^A-Z0-9])(?:NO|N|NUMERO)\s*(?:\/\s*NO)?\s*[:.]?\s*([0-9][A-Z0-9]{5,19})(?![A-Z0-9])/.exec(text);
    if (m && (m[1]!.match(/\d/g)?.length ?? 0) >= 5) {
      const value = withoutMarkResidue(m[1]!);
      const end = m.index + m[0].length;
      return { page: lines, line: i, value, text, start: end - value.length, end };
    }
  }
  for (const [i, l] of lines.entries()) {
    const text = fold(l.text);
    const m = /(?<![0-9])[0-9]{12,20}(?![0-9])/.exec(text.replace(/(?<=\d) (?=\d)/g, ''));
    if (m) return { page: lines, line: i, value: m[0], text, start: 0, end: text.length };
  }
  return null;
}

/**
 * A long all-digit number (the Sahel card's 17 digits) read with the rest of its "N°/No" mark
 * glued before it ("7N58845343049522570", "1NO80104169213131493"): the mark's residue, at most
 * two digits and two letters, is dropped. Numbers mixing letters and digits are kept as read
 * (their letters are part of them).
 */
function withoutMarkResidue(value: string): string {
  const m = /^[0-9]{0,2}[A-Z]{1,2}([0-9]{12,20})$/.exec(value);
  return m ? m[1]! : value;
}

/**
 * End (character index) of the value starting at `start` in a folded line: a document number
 * ends with its match; other values run to the end of the line (a date may be followed by
 * another field; the tamper checks only use the span as a region to look at).
 */
function valueEnd(field: Field, text: string, start: number): number {
  if (field === 'document_number') {
    const m = /[A-Z0-9][A-Z0-9 ]{4,}[A-Z0-9]/.exec(text.slice(start));
    if (m) return start + m.index + m[0].length;
  }
  return text.length;
}

/** The dates a document prints, in the order of their lives. */
const DATE_FIELDS = ['date_of_birth', 'date_of_issue', 'date_of_expiry'] as const;

/** Fields whose value is a name, printed in capitals under labels that are often in mixed case. */
const NAME_FIELDS: ReadonlySet<Field> = new Set(['surname', 'given_names']);

/** Lines below a label whose left edge sits within this many line heights of the label's start. */
const BELOW_X_TOLERANCE = 2.5;
/** A value on the label's row starts at most this many label heights after the label's end. */
const SAME_ROW_MAX_GAP = 12;
/** Value line at most this many label heights below the label (centre to centre). */
const BELOW_MAX_GAP = 2.2;

/**
 * Fields whose value has a form (a date, a number, a sex): text after the label that does not
 * parse as one ("Date de delivrance : 1", the date itself read as a box of its own to the right,
 * a stamp having split the line) is no value, and the value is looked for to the right and below.
 * Names have no such form: their label line keeps its text as before.
 */
const TYPED_FIELDS: ReadonlySet<Field> = new Set([
  'date_of_birth',
  'date_of_issue',
  'date_of_expiry',
  'document_number',
  'sex',
]);

/**
 * A name holds no digits: a line with two of them beside a name's label is another field
 * ("Nom/Surname" on the row of "N° du passeport/Passport NoVS8222403", read as the surname).
 * A text after the label on its own line that holds digits is still kept as the last resort.
 */
function isNameLike(value: string): boolean {
  return !/\d.*\d/.test(value);
}

/**
 * Whether line `i` sits under another label line than `own`, where a value printed below its
 * label sits: it is that label's value ("Date de delivrance   Date d'expiration" side by side,
 * each date under its label; the expiry date, a little lower than the issue label and to its
 * right, is not the issue date in a column).
 */
function underAnotherLabel(
  lines: TextLine[],
  i: number,
  own: number,
  labelLines: ReadonlySet<number>,
): boolean {
  const l = lines[i]!;
  for (const j of labelLines) {
    if (j === own || j === i) continue;
    const label = lines[j]!;
    const dy = l.y - label.y;
    if (dy <= 0.4 * label.height || dy > BELOW_MAX_GAP * label.height) continue;
    if (Math.abs(l.left - label.left) <= BELOW_X_TOLERANCE * label.height) return true;
  }
  return false;
}

/**
 * Where a typed field's value lies when none beside or under its label parses (a date read
 * "237CT 1989"): the text found there as for a value, holding at least three letters or digits
 * (fewer is a stray mark or the rest of a label, not a value). Names have no form to fail.
 */
function unparsedValueFor(
  hit: LabelHit,
  lines: TextLine[],
  folded: string[],
  labelLines: ReadonlySet<number>,
): { text: string; line: number; start: number } | null {
  if (!TYPED_FIELDS.has(hit.field)) return null;
  const glyphs = (value: string) => value.replace(/[^A-Z0-9]/g, '').length >= 3;
  const found = valueFor(hit, lines, folded, labelLines, glyphs);
  return found && glyphs(found.text) ? found : null;
}

/**
 * Where `hit`'s value was read: on the label's line, in a box to its right, or on a line under it.
 * A typed field's value must parse as the field's, a name must look like one; `accept` replaces
 * that test (the glyph cue's search for a value that does not parse, unparsedValueFor).
 */
function valueFor(
  hit: LabelHit,
  lines: TextLine[],
  folded: string[],
  labelLines: ReadonlySet<number> = new Set(),
  accept: (value: string) => boolean = (value) =>
    TYPED_FIELDS.has(hit.field)
      ? parseValue(hit.field, value) !== null
      : !NAME_FIELDS.has(hit.field) || isNameLike(value),
): { text: string; line: number; start: number } | null {
  const text = folded[hit.line]!;
  const inline = !NAME_FIELDS.has(hit.field)
    ? afterLabel(text.slice(hit.end), hit.field)
    : labelOnly(text, hit.field)
      ? ''
      : withoutLabelRest(afterLabel(text.slice(hit.end), hit.field), hit.field);
  // A value on the same line, unless what follows is itself another label, or, for a name, only
  // the rest of a misread mixed-case label ("Nom/Surnan" over the name): then the value is looked
  // for to the right and below first, and the same line's text is the last resort.
  const residue = NAME_FIELDS.has(hit.field) && mixedCaseOnly(casedTail(lines[hit.line]!.text, inline) ?? '');
  let lastResort: { text: string; line: number; start: number } | null = null;
  if (inline.length >= 1 && !isLabelLine(inline)) {
    const found = { text: inline, line: hit.line, start: Math.max(hit.end, text.lastIndexOf(inline)) };
    if (!residue && accept(inline)) return found;
    lastResort = found;
  }
  // The same field's label in the other language further on ("NOM DE FAMIL / SURNAME: X", the
  // first label misread): the value follows the last one.
  if (inline.length >= 1) {
    let end = -1;
    for (const l of LABELS[hit.field]) {
      const h = findLabel(inline, l);
      if (h && h.end > end) end = h.end;
    }
    const rest = end >= 0 ? afterLabel(inline.slice(end), hit.field) : '';
    if (rest.length >= 1 && !isLabelLine(rest) && accept(rest))
      return { text: rest, line: hit.line, start: Math.max(hit.end, text.lastIndexOf(rest)) };
  }
  const label = lines[hit.line]!;
  // A value printed in a column to the right of its label on the same row, read as its own box
  // (tables of labels and values).
  const labelEnd = label.left + (label.length * hit.end) / Math.max(1, text.length);
  let right: { i: number; dx: number } | null = null;
  lines.forEach((l, i) => {
    if (i === hit.line) return;
    if (Math.abs(l.y - label.y) > 0.5 * Math.max(label.height, l.height)) return;
    const dx = l.left - labelEnd;
    if (dx < -0.5 * label.height || dx > SAME_ROW_MAX_GAP * label.height) return;
    if (isLabelLine(folded[i]!)) return;
    if (NAME_FIELDS.has(hit.field) && (mixedCaseOnly(foldKeepCase(l.text)) || opensWithLabel(folded[i]!)))
      return;
    if (underAnotherLabel(lines, i, hit.line, labelLines)) return;
    if (!accept(folded[i]!)) return;
    if (!right || dx < right.dx) right = { i, dx };
  });
  if (right) {
    const i = (right as { i: number }).i;
    return { text: folded[i]!, line: i, start: 0 };
  }
  let best: { i: number; dy: number } | null = null;
  lines.forEach((l, i) => {
    if (i === hit.line) return;
    const dy = l.y - label.y;
    if (dy <= 0.4 * label.height || dy > BELOW_MAX_GAP * label.height) return;
    if (Math.abs(l.left - hit.x) > BELOW_X_TOLERANCE * label.height) return;
    if (isLabelLine(folded[i]!)) return;
    if (NAME_FIELDS.has(hit.field) && (mixedCaseOnly(foldKeepCase(l.text)) || opensWithLabel(folded[i]!)))
      return;
    if (!accept(folded[i]!)) return;
    if (!best || dy < best.dy) best = { i, dy };
  });
  if (best) {
    const i = (best as { i: number }).i;
    return { text: folded[i]!, line: i, start: 0 };
  }
  return lastResort;
}

const CENTURY: Partial<Record<Field, Century>> = {
  date_of_birth: 'past',
  date_of_issue: 'past',
  date_of_expiry: 'future',
};

function parseValue(field: Field, value: string): string | null {
  switch (field) {
    case 'date_of_birth':
    case 'date_of_issue':
    case 'date_of_expiry':
      return parsePrintedDate(value, CENTURY[field]);
    case 'sex': {
      const m = /(^|[^A-Z])(M|F|X|MASCULIN|FEMININ|MALE|FEMALE)([^A-Z]|$)/.exec(value);
      if (!m) return null;
      return m[2]!.startsWith('F') ? 'F' : m[2]!.startsWith('M') ? 'M' : 'X';
    }
    case 'document_number': {
      const m = /[A-Z0-9][A-Z0-9 ]{4,}[A-Z0-9]/.exec(value);
      return m ? withoutMarkResidue(m[0].replace(/\s+/g, '')) : null;
    }
    case 'surname':
    case 'given_names':
    case 'nationality':
    case 'place_of_birth':
    case 'issuing_authority': {
      const cleaned = value
        .replace(/[^A-Z' -]/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
      return cleaned.length >= 2 ? cleaned : null;
    }
  }
}
