/**
 * Names in the MRZ (ICAO 9303 part 3 §4.6 and §6): only A-Z and the filler '<'. Accented
 * letters are transliterated, some of them in two accepted ways (Ä → AE or A), separators
 * become '<', and long names are truncated to fit the line.
 */

/**
 * Letters whose ICAO transliteration is not simply "drop the accent". The first form is the
 * one ICAO recommends (and the one `transliterateToMrz` writes); the others are accepted when
 * comparing, because issuers use them.
 */
const SPECIAL_LETTERS: Record<string, readonly string[]> = {
  Ä: ['AE', 'A'],
  Å: ['AA', 'A'],
  Æ: ['AE'],
  Ö: ['OE', 'O'],
  Ø: ['OE', 'O'],
  Œ: ['OE'],
  Ü: ['UE', 'U'],
  ß: ['SS'],
  ẞ: ['SS'],
  Þ: ['TH'],
  Ð: ['D'],
  Đ: ['D'],
  Ł: ['L'],
  Ħ: ['H'],
  Ŧ: ['T'],
  Ŋ: ['N'],
  Ĳ: ['IJ'],
  ı: ['I'],
};

/** Characters that separate name components; ICAO writes them as '<'. */
const SEPARATORS = new Set([' ', '-', '‐', '‑', '–', '<', ',', '.', '\t', '\n']);
/** Apostrophes: ICAO omits them; some issuers write a '<'. Both are accepted when comparing. */
const APOSTROPHES = new Set(["'", '’', '‘', 'ʼ', '`', '´']);

type Unit = { kind: 'letters'; forms: readonly string[] } | { kind: 'separator'; optional: boolean };

/** The transliteration candidates of one printed character ('' = dropped). */
function letterForms(ch: string): readonly string[] {
  const special = SPECIAL_LETTERS[ch];
  if (special) return special;
  const base = ch.normalize('NFD').replace(/\p{M}/gu, '');
  if (/^[A-Z0-9]+$/.test(base)) return [base];
  const special2 = SPECIAL_LETTERS[base];
  if (special2) return special2;
  return ['']; // a sign the MRZ cannot hold (script other than Latin, stray symbol)
}

/** Printed name → comparison units. Upper-casing first turns ß into SS, as ICAO does. */
function toUnits(printed: string): Unit[] {
  const units: Unit[] = [];
  // toUpperCase maps 'ß' to 'SS' and keeps 'ı' as 'I'; NFC joins decomposed accents.
  for (const ch of printed.normalize('NFC').toUpperCase()) {
    if (SEPARATORS.has(ch)) units.push({ kind: 'separator', optional: false });
    else if (APOSTROPHES.has(ch)) units.push({ kind: 'separator', optional: true });
    else units.push({ kind: 'letters', forms: letterForms(ch) });
  }
  // Collapse runs of separators and drop them at both ends.
  const out: Unit[] = [];
  for (const u of units) {
    if (u.kind === 'letters' && u.forms.length === 1 && u.forms[0] === '') continue;
    const prev = out[out.length - 1];
    if (u.kind === 'separator') {
      if (out.length === 0) continue;
      if (prev?.kind === 'separator') {
        prev.optional = prev.optional && u.optional;
        continue;
      }
    }
    out.push(u);
  }
  while (out[out.length - 1]?.kind === 'separator') out.pop();
  return out;
}

/**
 * A printed name in its MRZ form (ICAO 9303 part 3): upper case, accents transliterated with
 * ICAO's recommended form (Ä → AE, Ü → UE, Ñ → N, ß → SS), spaces, hyphens and commas as '<',
 * apostrophes omitted (O'NEIL → ONEIL), other signs dropped. No truncation here.
 */
export function transliterateToMrz(name: string): string {
  let out = '';
  for (const u of toUnits(name)) {
    if (u.kind === 'letters') out += u.forms[0];
    else if (!u.optional) out += '<';
  }
  return out;
}

/** MRZ form: upper case, spaces read as fillers, runs of fillers collapsed, no fillers at the ends. */
function normaliseMrzName(mrzForm: string): string {
  return mrzForm
    .toUpperCase()
    .replace(/[\s<]+/g, '<')
    .replace(/^<|<$/g, '');
}

export interface NamesMatchOptions {
  /**
   * Whether the MRZ name may have been truncated to fit its line (ICAO cuts long names at the
   * end of the field and may shorten components to their first letters). Default true; the
   * judge passes false when the MRZ name field was not full, so a missing name counts.
   */
  truncated?: boolean;
}

/**
 * Whether a printed name (visual zone, any case and accents) and a name read from the MRZ
 * (`ANNA<MARIA` or `ANNA MARIA`) are the same name. Tolerates accents, case, the ICAO
 * transliterations (Ä → AE or A, Ü → UE or U, Ñ → N, ß → SS), hyphens and apostrophes written
 * as '<' or omitted, and, when `truncated`, a name cut at the end of the field or components
 * shortened (ANNA<M for ANNA MARIA).
 */
export function namesMatch(printed: string, mrzForm: string, options: NamesMatchOptions = {}): boolean {
  const truncated = options.truncated ?? true;
  const units = toUnits(printed);
  const mrz = normaliseMrzName(mrzForm);
  if (units.length === 0 || mrz.length === 0) return units.length === 0 && mrz.length === 0;

  // Breadth-first search over (printed unit index, MRZ position, letters matched in the
  // current component); small inputs, so a visited set is enough.
  const seen = new Set<string>();
  const stack: Array<[number, number, number]> = [[0, 0, 0]];
  const nextSeparator = (i: number): number => {
    let k = i;
    while (k < units.length && units[k]!.kind !== 'separator') k++;
    return k;
  };
  while (stack.length > 0) {
    const [i, j, inComponent] = stack.pop()!;
    const key = `${i},${j},${inComponent > 0 ? 1 : 0}`;
    if (seen.has(key)) continue;
    seen.add(key);

    if (j === mrz.length) {
      if (i === units.length) return true;
      // The MRZ stops early: the rest of the name was cut off at the end of the field.
      if (truncated && (inComponent > 0 || units[i]?.kind === 'separator')) return true;
      // Only optional separators may remain.
      if (units.slice(i).every((u) => u.kind === 'separator' && u.optional)) return true;
    }
    const unit = units[i];
    if (unit === undefined) continue;
    if (unit.kind === 'separator') {
      if (mrz[j] === '<') stack.push([i + 1, j + 1, 0]);
      // Apostrophes are omitted by ICAO; hyphens and spaces are sometimes squeezed out.
      stack.push([i + 1, j, 0]);
      continue;
    }
    for (const form of unit.forms) {
      if (form === '') stack.push([i + 1, j, inComponent]);
      else if (mrz.startsWith(form, j)) stack.push([i + 1, j + form.length, inComponent + 1]);
      else if (truncated && j < mrz.length && form.startsWith(mrz.slice(j))) {
        // Cut in the middle of a two-letter transliteration (MÜLLER → …MU at the field's end).
        stack.push([i + 1, mrz.length, inComponent + 1]);
      }
    }
    // A component shortened in the MRZ (MARIA → M): skip to the printed separator.
    if (truncated && inComponent > 0 && mrz[j] === '<') {
      const k = nextSeparator(i);
      if (k < units.length) stack.push([k + 1, j + 1, 0]);
    }
  }
  return false;
}

/**
 * Splits an MRZ name field `SURNAME<<GIVEN<NAMES<<<` into its parts, fillers removed and
 * spaces between the names.
 */
export function splitMrzName(field: string): { surname: string; givenNames: string } {
  const trimmed = field.replace(/<+$/, '');
  const cut = trimmed.indexOf('<<');
  const clean = (s: string) => s.replace(/<+/g, ' ').trim();
  if (cut < 0) return { surname: clean(trimmed), givenNames: '' };
  return { surname: clean(trimmed.slice(0, cut)), givenNames: clean(trimmed.slice(cut + 2)) };
}

/**
 * The MRZ name field for a holder, fitted to `width` characters: `SURNAME<<GIVEN<NAMES`,
 * padded with fillers. When too long, the given names are shortened first, from the end
 * (ICAO 9303 part 3 §4.6 truncation), then the surname if it alone does not fit.
 */
export function fitMrzName(surname: string, givenNames: string, width: number): string {
  const sur = transliterateToMrz(surname);
  const given = transliterateToMrz(givenNames);
  let field = given ? `${sur}<<${given}` : sur;
  if (field.length > width) field = field.slice(0, width);
  return field.padEnd(width, '<');
}
