/**
 * `field_overwritten`, misfit cue: a field whose value reads, cleanly, as another field's kind
 * of value: a name under a date's label, a date under a name's, a name where the number goes.
 * The public forged-document sets made from templates move one field's region over another's
 * ("crop and replace": a value region of another document of the same design, stretched over
 * the field; the two fields are drawn at random, so mostly of different kinds), and a forger
 * who pastes a value into the wrong place does the same. No pattern breaks where the background
 * is smooth, and the letters are the page's own face; what is left is the text itself.
 *
 * Only values the reading step left unread are looked at (the field's label read, the value
 * beside or under it not parsing as the field's: `unparsed`), and only a clean reading of another
 * kind counts. A value broken by capture (glare, blur, a stamp) reads as a date with letters in
 * it ("210CT", "3LMAY1995"), a part of one ("T2019") or a few letters: none of these is a
 * misfit. On the generated tuning draw `s30-tune` (read boxes), the unparsed values of 300
 * genuine captures (plain and under glare, blur, marks, dim and bright light) held no misfit;
 * the sex field is left out, where stamp text ("OFFICIEL") reads as letters.
 *
 * Opt-in (IDV_TAMPER_MISFIT_VALUE=1, opt-in-cues.ts): judged on the holdouts by a rule written
 * before, it caught 2 → 19 of 75 values moved over another field on a fresh draw (6 → 23 of 75
 * uploaded as files) with one genuine capture of 600 newly flagged, but flagged two genuine
 * pages of the fixtures' holdout half where the rule allowed none: on real layouts the reading
 * step took a label line of another field as the value ("Birthdate PABateapry", "ORGAN
 * WYDAJACY PASZPORT I POINT OF ISSUE"), which reads as a name (docs/decisions.md).
 */

export type ValueKind = 'name' | 'number' | 'date';

/** Fields by the kind of value they hold; a field not listed is not judged. */
const EXPECTED: Record<string, ValueKind> = {
  date_of_birth: 'date',
  date_of_issue: 'date',
  date_of_expiry: 'date',
  document_number: 'number',
  surname: 'name',
  given_names: 'name',
  place_of_birth: 'name',
  nationality: 'name',
};

/**
 * Letters a date may hold: month names and their abbreviations in the languages the documents
 * print (FR, EN), which are words of letters like a name's. A value of letters only is a name
 * unless it is one of these.
 */
const MONTH_WORDS =
  /^(JAN|JANV|JANVIER|JANUARY|FEB|FEV|FEVR|FEVRIER|FEBRUARY|MAR|MARS|MARCH|APR|AVR|AVRIL|APRIL|MAY|MAI|JUN|JUIN|JUNE|JUL|JUIL|JUILLET|JULY|AUG|AOU|AOUT|AUGUST|SEP|SEPT|SEPTEMBRE|SEPTEMBER|OCT|OCTOBRE|OCTOBER|NOV|NOVEMBRE|NOVEMBER|DEC|DECEMBRE|DECEMBER)$/;

/**
 * The kind of a value that did not parse as its field's, when its text reads cleanly as another
 * kind; null when it reads as nothing in particular (a broken value, a few glyphs).
 * - name: letters only, at least NAME_MIN_LETTERS of them in one word that is no month;
 * - number: a run of NUMBER_MIN_DIGITS digits or more (longer than any date's), or two letters
 *   and more followed by NUMBER_LETTER_DIGITS digits or more (a document number's form);
 * - date: day, month and year in digits with separators (12.05.2031, 12/05/2031, 12-05-2031).
 */
export function valueKind(text: string): ValueKind | null {
  // Punctuation around the value (the colon after its label, a stray dot) is not part of it.
  const t = text.replace(/^[^A-Z0-9]+|[^A-Z0-9]+$/g, '');
  const compact = t.replace(/\s+/g, '');
  if (/^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$/.test(compact)) return 'date';
  if (LONG_DIGIT_RUN.test(t) || NUMBER_FORM.test(compact)) return 'number';
  if (/^[A-Z' -]+$/.test(t)) {
    const words = t.split(/[\s'-]+/).filter((w) => w.length > 0);
    if (words.some((w) => w.length >= NAME_MIN_LETTERS && !MONTH_WORDS.test(w))) return 'name';
  }
  return null;
}

/** Letters in one word for a value to read as a name (a broken date leaves one or two). */
const NAME_MIN_LETTERS = 4;
/** Digits in one run that no date prints (8 at most: 23102004). */
const NUMBER_MIN_DIGITS = 9;
/** Digits after a document number's letters ("NE8750984"). */
const NUMBER_LETTER_DIGITS = 6;
const LONG_DIGIT_RUN = new RegExp(`\\d{${NUMBER_MIN_DIGITS},}`);
const NUMBER_FORM = new RegExp(`[A-Z]{2,}\\d{${NUMBER_LETTER_DIGITS},}`);

/**
 * Whether an unparsed value (`value`, its text as read) of `field` reads as another kind of
 * value than the field holds.
 */
export function isMisfitValue(field: string, value: string | undefined): boolean {
  const expected = EXPECTED[field];
  if (!expected || value === undefined) return false;
  const kind = valueKind(value);
  return kind !== null && kind !== expected;
}
