/** Normalized reference: upper-case, without spaces, '-', '.', '/', '_' (same rule as f_normalize_reference in SQL). */
export function normalizeReference(reference: string): string {
  return reference.replace(/[\s\-./_]+/g, '').toUpperCase();
}

/**
 * Letters that are not a base letter plus a diacritic, so NFD leaves them alone, but that
 * PostgreSQL's unaccent (f_fold) and OpenSearch's asciifolding spell out: "Außen" is "aussen".
 */
const SPELLED_OUT: Record<string, string> = {
  ß: 'ss',
  ẞ: 'ss',
  æ: 'ae',
  Æ: 'ae',
  œ: 'oe',
  Œ: 'oe',
  ø: 'o',
  Ø: 'o',
  ł: 'l',
  Ł: 'l',
  đ: 'd',
  Đ: 'd',
  ð: 'd',
  Ð: 'd',
  þ: 'th',
  Þ: 'th',
  ı: 'i',
};
const SPELLED_OUT_PATTERN = new RegExp(`[${Object.keys(SPELLED_OUT).join('')}]`, 'gu');

/** Text of plain ASCII only (which has no diacritics and nothing to spell out). */
// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;

/** Case- and accent-folded text (same rule as f_fold in SQL): for makes, models and names. */
export function fold(text: string): string {
  // plain ASCII has no diacritics and nothing to spell out: the common case (a feed's every line
  // folds its condition) skips the Unicode normalization
  if (ASCII.test(text)) return text.toLowerCase().trim();
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(SPELLED_OUT_PATTERN, (letter) => SPELLED_OUT[letter]!)
    .toLowerCase()
    .trim();
}
