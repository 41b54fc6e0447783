/** Normalized reference: upper-case, without spaces, '-', '.', '/', '_' (same rule as f_normalize_reference in SQL). */
export function normalizeReference(reference: string): string {
  return reference.replace(/[\s\-./_]+/g, '').toUpperCase();
}

/** Case- and accent-folded text (same rule as f_fold in SQL): for makes, models and names. */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();
}
