/** The words of a free-text query: letters and digits, lower-cased. */
export function textWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 32);
}

/**
 * A tsquery over the words: every word must match, the last one as a prefix (the user may still be
 * typing it). Only letters and digits reach the query, so its syntax cannot be broken by input.
 */
export function textQueryTerms(text: string): string {
  const words = textWords(text);
  return words.map((w, i) => (i === words.length - 1 ? `${w}:*` : w)).join(' & ');
}
