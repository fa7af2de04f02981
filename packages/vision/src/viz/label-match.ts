import { type Field, LABELS } from './labels.ts';
import { editDistance, fold, foldKeepCase } from './text.ts';

/**
 * Loose label matching: telling a printed label from its value when small or degraded print is
 * read with more errors than the exact matching in fields.ts allows ("NOMDETAMLE:", "NomSumme",
 * "Date de deliva"), and telling the rest of such a label from the value read after it. It lives
 * apart from fields.ts because it is a set of error-rate rules with margins of their own, tuned
 * on misreadings, while fields.ts places values by their labels' positions on the page.
 */

/**
 * A label read with more errors than findLabel (fields.ts) tolerates, told by the colon after it:
 * its letters (digits read for letters mapped back, "WALA8LEJU50UAU") are within a third of their
 * count of a field's label, and that field is clearly nearer than any other, so that a garbled label is
 * taken for a field only when no other field's label is a near reading of it too.
 */
const GARBLED_MAX_ERRORS = 1 / 3;
const GARBLED_MARGIN = 0.2;
/** Shorter heads ("EE:", "OL:") could be any label. */
const GARBLED_MIN_LETTERS = 4;

function labelLetters(text: string): string {
  return text
    .replace(/0/g, 'O')
    .replace(/1/g, 'I')
    .replace(/5/g, 'S')
    .replace(/8/g, 'B')
    .replace(/[^A-Z]/g, '');
}

export function garbledLabel(text: string): { field: Field; end: number } | null {
  const colon = text.indexOf(':');
  if (colon < 0) return null;
  const field = nearestField(labelLetters(text.slice(0, colon)), GARBLED_LABELS);
  return field ? { field, end: colon + 1 } : null;
}

/** Each field's labels as letters, long enough to be told apart when misread. */
const GARBLED_LABELS = Object.fromEntries(
  (Object.keys(LABELS) as Field[]).map((f) => [
    f,
    LABELS[f].map(labelLetters).filter((l) => l.length >= GARBLED_MIN_LETTERS),
  ]),
) as Record<Field, string[]>;

/**
 * The same with the bilingual forms a whole label line takes ("Nom/Surname", "Prénoms/Given
 * names"): any two labels of the field, French first or English first.
 */
const GARBLED_LINE_LABELS = Object.fromEntries(
  (Object.keys(LABELS) as Field[]).map((f) => {
    const words = LABELS[f].map(labelLetters);
    return [
      f,
      [...GARBLED_LABELS[f], ...words.flatMap((a) => words.filter((b) => b !== a).map((b) => a + b))],
    ];
  }),
) as Record<Field, string[]>;

/**
 * A label cut short (a stamp over its end, "Date de deliva" + the date in a box of its own) is
 * still told by its first letters when there are enough of them ("DATE DE " is common to three).
 */
const MIN_CUT_LABEL_LETTERS = 10;

/** The field a whole line in mixed case is the label of, read with errors or cut; null when unclear. */
export function garbledLabelLine(text: string): Field | null {
  const head = labelLetters(text);
  if (head.length < MIN_CUT_LABEL_LETTERS) return nearestField(head, GARBLED_LINE_LABELS);
  const withCut = Object.fromEntries(
    (Object.keys(LABELS) as Field[]).map((f) => [
      f,
      [
        ...GARBLED_LINE_LABELS[f],
        ...GARBLED_LABELS[f].filter((l) => l.length > head.length).map((l) => l.slice(0, head.length)),
      ],
    ]),
  ) as Record<Field, string[]>;
  return nearestField(head, withCut);
}

/** The field whose label `head` is within GARBLED_MAX_ERRORS of, clearly nearer than any other's. */
function nearestField(head: string, labels: Record<Field, string[]>): Field | null {
  if (head.length < GARBLED_MIN_LETTERS) return null;
  const errors = (Object.keys(labels) as Field[]).map((field) => ({
    field,
    rate: Math.min(Number.POSITIVE_INFINITY, ...labels[field].map((l) => editDistance(head, l) / l.length)),
  }));
  errors.sort((a, b) => a.rate - b.rate);
  const [best, second] = errors as [{ field: Field; rate: number }, { field: Field; rate: number }];
  if (best.rate > GARBLED_MAX_ERRORS || second.rate < best.rate + GARBLED_MARGIN) return null;
  return best.field;
}

/**
 * A line holding only a longer label of a name field, read loosely past the word found exactly
 * ("NOM DEFAMAE": "NOM" found, "DE FAMILLE" misread), holds no value: it is looked for under it.
 * The line must be no longer than the label and within a quarter of its letters of it, so that
 * a short name after the label ("NOM DE FAMILLE BA") is not taken for the label's end.
 */
const LABEL_ONLY_MAX_ERRORS = 1 / 4;

export function labelOnly(text: string, field: Field): boolean {
  const letters = labelLetters(text);
  return GARBLED_LABELS[field].some(
    (l) => letters.length <= l.length && editDistance(letters, l) / l.length <= LABEL_ONLY_MAX_ERRORS,
  );
}

/**
 * Print small or degraded enough for its label to be misread loses the spaces between names too
 * ("HADIZAMARIETOU"), and a name read without its spaces differs from the MRZ's: a word of this
 * many letters, longer than most single names, is taken for names run together, and such a value
 * read beside a loosely found label is left unread.
 */
const GLUED_NAMES_LETTERS = 12;

export function gluedNames(value: string): boolean {
  return value.split(/[^A-Z]+/).some((w) => w.length >= GLUED_NAMES_LETTERS);
}

/**
 * A name read after its label on the same line may still begin with the rest of a misread
 * bilingual label ("Nom de famie Sumame ZERBO", "SumameZERBO"): labels printed in mixed case are
 * told from the value, printed in capitals, by the case the recogniser read. Leading words that
 * start with a lower-case letter after at most one capital are dropped, and a word where such a
 * label word runs into two capitals is cut there. Applied only when something in capitals is
 * left: a name printed in mixed case ("Aminata") is kept whole.
 */
export function withoutMixedCaseLead(
  value: { text: string; line: number; start: number },
  raw: string,
): { text: string; line: number; start: number } {
  const tail = casedTail(raw, value.text);
  if (tail === null) return value;
  const lead = MIXED_CASE_LEAD.exec(tail);
  if (!lead || lead[0].length === 0) return value;
  const rest = tail.slice(lead[0].length);
  if (!/^[A-Z]{2}/.test(rest)) return value;
  return { text: rest.toUpperCase(), line: value.line, start: value.start + lead[0].length };
}

/**
 * Leading label words in mixed case: whole words with lower-case letters and never two capitals
 * in a row ("de", "famie", "NeeDatfbith"), or a label word of five letters or more running into
 * two capitals ("SumameZERBO"; label words glued so are "Surname", "Given names", "Prenoms"). A
 * name whose case was misread in its first letters ("AiSSATA", "MouMOUNI", "CoMPAORE") matches
 * neither and is kept.
 */
const MIXED_CASE_LEAD =
  /^(?:[^A-Za-z]*(?:[A-Z]?[a-z](?:[a-z]|[A-Z](?![A-Z]))*(?=[^A-Za-z]|$)|[A-Z]?[a-z]{4,}(?=[A-Z]{2})))+[^A-Za-z]*/;

/**
 * The end of a line as read, case kept, that folds to `folded` (a value is the folded line's tail:
 * afterLabel strips only its head); null when it cannot be matched.
 */
export function casedTail(raw: string, folded: string): string | null {
  const cased = foldKeepCase(raw);
  if (cased.length !== fold(raw).length) return null;
  const at = cased.length - folded.length;
  if (at < 0 || cased.slice(at).toUpperCase() !== folded) return null;
  return cased.slice(at);
}

/**
 * Text with lower-case letters and never two capitals in a row ("Surnan", "Nodu", "NeeDatfbith"):
 * the words of a mixed-case label, where names are printed in capitals ("SsuameBA" holds one).
 */
export function mixedCaseOnly(cased: string): boolean {
  return /[a-z]/.test(cased) && !/[A-Z]{2}/.test(cased);
}

/**
 * The rest of a name's label read as one word before a colon, after the label's first word was
 * found ("NOM DEFAMLE:DEMBELE": "NOM" found, "DE FAMILLE" misread): the word is within a third
 * of its letters of a label's last words, and the value is what follows the colon. Names hold no
 * colon, so the word before it is no part of the name.
 */
export function withoutLabelRest(value: string, field: Field): string {
  const m = /^([A-Z]+) ?: ?(\S.*)$/.exec(value);
  if (!m) return value;
  const word = m[1]!;
  const rest = LABEL_TAILS[field].some((t) => editDistance(word, t) / t.length <= GARBLED_MAX_ERRORS);
  return rest ? m[2]! : value;
}

/** Each field's labels' last words run together ("NOM DE FAMILLE": "DEFAMILLE", "FAMILLE"). */
const LABEL_TAILS = Object.fromEntries(
  (Object.keys(LABELS) as Field[]).map((f) => [
    f,
    LABELS[f]
      .flatMap((l) => {
        const words = l.split(' ');
        return words.slice(1).map((_, k) => labelLetters(words.slice(k + 1).join('')));
      })
      .filter((t) => t.length >= GARBLED_MIN_LETTERS),
  ]),
) as Record<Field, string[]>;
