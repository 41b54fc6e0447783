import { eld } from 'eld/extrasmall';

/**
 * The languages the index analyses a listing in (mappings/stock.json: text_lang.*), the catalog's
 * six: a stock item's `text_language` is one of them or null.
 */
export const LISTING_LANGUAGES = ['pt', 'en', 'es', 'fr', 'de', 'it'] as const;
export type ListingLanguage = (typeof LISTING_LANGUAGES)[number];

// The smallest of eld's n-gram tables: as right as the larger ones on listings (a title and a
// description of a sentence or two), loaded in a third of the time and memory.
eld.setLanguageSubset([...LISTING_LANGUAGES]);

const KNOWN = new Set<string>(LISTING_LANGUAGES);

/**
 * Fewer words of letters than this are not a language to tell: "Disco de travão" reads as Spanish
 * as well as Portuguese, and a wrong language would rank the item by the wrong stems.
 */
const MIN_WORDS = 4;
const WORDS = /\p{L}{2,}/gu;

/**
 * The language a listing is written in, told once as the item is written (a feed's apply, the
 * stock API), so that the index analyses it in that language only instead of in all six, and a
 * rebuild pays nothing for it. Null when the detector is not sure (a short title, a list of codes, another
 * language): the index then analyses the item in every language, as it did before items carried
 * one. What a text search finds never depends on it (`text_all`, unstemmed, decides that); only
 * its order does.
 */
export function listingLanguage(title: string, description: string): ListingLanguage | null {
  const text = description ? `${title} ${description}` : title;
  if ((text.match(WORDS) ?? []).length < MIN_WORDS) return null;
  const found = eld.detect(text);
  return found.isReliable() && KNOWN.has(found.language) ? (found.language as ListingLanguage) : null;
}
