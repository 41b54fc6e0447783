import { LISTING_LANGUAGE_NGRAMS } from './listing-language-ngrams.js';
import {
  eldModule,
  LISTING_LANGUAGES,
  type EldDetector,
  type EldTable,
  type ListingLanguage,
} from './listing-language-table.js';

export { LISTING_LANGUAGES, type ListingLanguage };

// eld's detector on the six languages' part of its smallest table: as right on listings as its
// larger tables, loaded in a tenth of the memory, and without the garbage each detection leaves
// over sixty languages' scores.
const { createEld } = await eldModule<{
  createEld(): { instance: EldDetector; loadData(table: EldTable): unknown };
}>('../languageDetector.js');
const { instance: eld, loadData } = createEld();
loadData(LISTING_LANGUAGE_NGRAMS);
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
 * rebuild pays nothing for it. Null when the detector is not sure (a short title, a list of codes,
 * another language): the index then analyses the item in every language, as it did before items
 * carried one. What a text search finds never depends on it (`text_all`, unstemmed, decides that);
 * only its order does.
 */
export function listingLanguage(title: string, description: string): ListingLanguage | null {
  const text = description ? `${title} ${description}` : title;
  if ((text.match(WORDS) ?? []).length < MIN_WORDS) return null;
  const found = eld.detect(text);
  return found.isReliable() && KNOWN.has(found.language) ? (found.language as ListingLanguage) : null;
}
