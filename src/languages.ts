/**
 * The six languages of the product: the catalog's labels and the listings' analyses (a stock
 * item's `text_language`). In this order wherever a tuple of them is written.
 */
export const LANGUAGES = ['pt', 'en', 'es', 'fr', 'de', 'it'] as const;
export type Lang = (typeof LANGUAGES)[number];
