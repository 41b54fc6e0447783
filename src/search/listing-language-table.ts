import { LANGUAGES, type Lang } from '../languages.js';

/**
 * The languages the index analyses a listing in (mappings/stock.json: text_lang.*), the catalog's
 * six: a stock item's `text_language` is one of them or null.
 */
export const LISTING_LANGUAGES = LANGUAGES;
export type ListingLanguage = Lang;

/**
 * eld's n-gram table, the shape eld 2.1.0's src/ngrams/*.js files export. Its entry points each
 * load a 60-language table where the listings need six, so the detector is made from inside the
 * package (its version pinned exactly in package.json), from a table of the six
 * (listing-language-ngrams.ts).
 */
export interface EldTable {
  type: string;
  /** language index → ISO 639-1 code, all 60 (the scores are indexed by it) */
  languages: Record<number, string>;
  isSubset: boolean;
  /** n-gram → language index → weight */
  ngrams: Record<string, Record<number, number>>;
}

export interface EldDetector {
  detect(text: string): { language: string; isReliable(): boolean };
  setLanguageSubset(languages: string[]): unknown;
}

/** A module of eld's own (`../languageDetector.js`, `../ngrams/extrasmall.js`), by its path. */
export async function eldModule<T>(path: string): Promise<T> {
  return (await import(new URL(path, import.meta.resolve('eld')).href)) as T;
}
