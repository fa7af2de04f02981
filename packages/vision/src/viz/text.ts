/**
 * Text normalisation for matching OCR output against labels and wording: accents are unreliable
 * in OCR (É read as E, È as É, or dropped), so everything is compared upper-case without them.
 * The recogniser's dictionary holds CJK punctuation, and it reads a bracket of small print as its
 * full-width form ("NE(E） LE"): compatibility forms are folded to their plain characters.
 */
export function fold(s: string): string {
  return foldKeepCase(s).toUpperCase();
}

/**
 * `fold` without the upper-casing: the same characters at the same indexes (for the letters
 * whose upper case is one letter), so that the case of what a folded match covers can be read.
 */
export function foldKeepCase(s: string): string {
  return (
    s
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[’‘`´]/g, "'")
      // "N°" (numéro) is read as N° or No.
      .replace(/[Nn]\s*[°º]/g, 'No')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** Levenshtein distance, for tolerant label matching (OCR drops or swaps a letter). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}

/**
 * Whether `needle` occurs in `haystack` with at most `maxErrors` edits (approximate substring
 * search, Sellers' algorithm). Both must already be folded.
 */
export function fuzzyContains(haystack: string, needle: string, maxErrors: number): boolean {
  return fuzzyFind(haystack, needle, maxErrors) >= 0;
}

/** End index (exclusive) in `haystack` of the best approximate match of `needle`, or -1. */
export function fuzzyFind(haystack: string, needle: string, maxErrors: number): number {
  if (needle.length === 0) return 0;
  let prev = Array.from({ length: needle.length + 1 }, (_, i) => i);
  let bestEnd = -1;
  let best = maxErrors + 1;
  if (prev[needle.length]! < best) {
    best = prev[needle.length]!;
    bestEnd = 0;
  }
  for (let j = 1; j <= haystack.length; j++) {
    const cur = [0];
    for (let i = 1; i <= needle.length; i++) {
      cur[i] = Math.min(
        prev[i]! + 1,
        cur[i - 1]! + 1,
        prev[i - 1]! + (needle[i - 1] === haystack[j - 1] ? 0 : 1),
      );
    }
    if (cur[needle.length]! < best) {
      best = cur[needle.length]!;
      bestEnd = j;
    }
    prev = cur;
  }
  return best <= maxErrors ? bestEnd : -1;
}

/** Errors tolerated when matching a label of this length: none for short words, ~1 per 6 letters. */
export function tolerance(label: string): number {
  return label.length < 5 ? 0 : Math.floor(label.length / 6);
}
