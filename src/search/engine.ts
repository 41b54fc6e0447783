import type { Condition, ReferenceKind } from '../db/schema.js';
import type { ListingLanguage } from './listing-language.js';

/**
 * The search engine port. The search service, the stats endpoint and the stock-derived catalog
 * lists depend on this interface only; the Postgres engine and the OpenSearch engine implement it
 * and must give the same answers to the same query (test/contract runs one suite against both).
 */

/** A reference as the caller typed it and normalized (what every lookup matches). */
export interface ReferenceQuery {
  typed: string;
  /** upper-case, without spaces, '-', '.', '/', '_' (references.ts) */
  normalized: string;
}

/**
 * What to look for, parsed once (stock-query.ts builds it): all present fields must hold (AND).
 * Text fields are as the caller sent them, the reference also normalized; `key` names the search
 * however it was written.
 */
export interface StockQuery {
  /** matches the item's own reference, its associated references and its cross-reference group */
  reference?: ReferenceQuery;
  /** case- and accent-insensitive equality */
  vehicleMake?: string;
  /** case- and accent-insensitive; whole words from the start: "golf" finds "Golf VII", not "Golfinho" */
  vehicleModel?: string;
  partId?: number;
  /** full text over title + description, accent-insensitive, prefix match on the last word */
  text?: string;
  condition?: Condition;
  isOem?: boolean;
  isAftermarket?: boolean;
  /** ISO 3166-1 alpha-2, upper-case: the item's location country */
  country?: string;
  priceMin?: number;
  priceMax?: number;
  /**
   * the canonical fields: the same search written differently (case, accents, reference
   * punctuation) has the same; they bind a search token and name the search in the history
   */
  readonly canonical: Readonly<Record<string, string | number | boolean>>;
  /** `canonical` as one string: what the engines keep a query's work under */
  readonly key: string;
}

export interface PageRequest {
  /** 1-based */
  page: number;
  perPage: number;
}

export interface ItemReference {
  reference: string;
  kind: ReferenceKind;
  brand: string | null;
}

/** A stock item as the engines return it (the HTTP layer names the fields for the client). */
export interface StockItem {
  id: number;
  reference: string;
  /** associated references (not the item's own) */
  references: ItemReference[];
  title: string;
  description: string;
  partId: number | null;
  condition: Condition;
  isOem: boolean;
  isAftermarket: boolean;
  price: number;
  currency: string;
  vendorId: number;
  vendorName: string;
  countryCode: string;
  vehicleMake: string | null;
  vehicleModel: string | null;
  vehicleVariant: string | null;
  quantity: number;
  /** ISO-8601 UTC */
  updatedAt: string;
}

/** A stock item a search found. */
export interface StockHit extends StockItem {
  /** the item's reference that the query's reference matched (own, associated or cross-reference); null without a reference query */
  matchedReference: string | null;
}

export interface PriceSummary {
  count: number;
  priceMin: number;
  priceMax: number;
  /** rounded to 2 decimals */
  priceAvg: number;
}

/** Statistics over the whole result set (not the page). Prices null when there are no results. */
export interface PriceStats {
  totalResults: number;
  priceMin: number | null;
  priceMax: number | null;
  priceAvg: number | null;
  totalSellers: number;
  /** only conditions present in the result set */
  byCondition: Partial<Record<Condition, PriceSummary>>;
}

/** The statistics of an empty result set (a fresh object: callers may add to it). */
export const noResultsStats = (): PriceStats => ({
  totalResults: 0,
  priceMin: null,
  priceMax: null,
  priceAvg: null,
  totalSellers: 0,
  byCondition: {},
});

export interface HistogramBucket {
  /** inclusive */
  from: number;
  /** exclusive, except the last bucket which includes priceMax */
  to: number;
  count: number;
}

/** For analysts: /data/search/stats. */
export interface DetailedPriceStats extends PriceStats {
  priceMedian: number | null;
  priceP25: number | null;
  priceP75: number | null;
  /** at most 20 equal-width buckets from priceMin to priceMax; empty without results */
  histogram: HistogramBucket[];
  byCountry: Record<string, PriceSummary>;
}

export interface SearchResult {
  total: number;
  items: StockHit[];
  stats: PriceStats;
  /** the sort values of the page's last item (see PageAfter); absent on an empty page */
  last?: SortValues;
}

/**
 * Where an item stands in a search's order (relevance for text, then price, then id), as the
 * engine that answered sorts: the last item of a page, from which the next page is read. Relevance
 * is each engine's own, so one engine's values mean nothing to the other.
 */
export interface SortValues {
  engine: 'postgres' | 'opensearch';
  values: number[];
}

/** The page that follows an item: the next `perPage` items after `after` in the search's order. */
export interface PageAfter {
  after: SortValues;
  perPage: number;
}

/** A page read after an item: no total, no statistics (the first page of the search had them). */
export interface PageAfterResult {
  items: StockHit[];
  last?: SortValues;
}

/** Stock-derived lists for /data/catalog/brands, /models/:brand, /variants/:model */
export type FacetField = 'make' | 'model' | 'variant';

export interface FacetRequest {
  field: FacetField;
  /** narrow to a make (for models) or a model (for variants), case- and accent-insensitive */
  make?: string;
  model?: string;
}

export interface FacetValue {
  value: string;
  count: number;
}

/** A full stock document as read from Postgres, the source of truth; what the indexer writes. */
export interface StockDocument extends StockItem {
  referenceNorm: string;
  /** the references of the item's cross-reference group (to name the matched one) */
  xrefReferences: ItemReference[];
  /** normalized references: own + associated + cross-reference group */
  referencesNorm: string[];
  xrefGroupId: number | null;
  /**
   * the language of the title and description (stock_items.text_language): the index analyses the
   * text in it alone; null, in all six
   */
  textLanguage: ListingLanguage | null;
  /** row version, used as the external document version */
  version: number;
  /**
   * md5 of everything the document is made of, as PostgreSQL computes it (stock-documents.ts):
   * stored in the document, so that index:verify can compare the index with the rows by digests
   */
  contentHash: string;
}

export interface SearchEngine {
  readonly name: 'postgres' | 'opensearch';
  /**
   * one page of items, the total, and the stats over the whole result set; the page lies within
   * MAX_RESULT_WINDOW (result-window.ts: the search service checks it before asking)
   */
  search(query: StockQuery, page: PageRequest): Promise<SearchResult>;
  /**
   * The page after an item of the same search (its sort values, which this engine gave): what
   * sequential paging costs, a first page's read without its counting or statistics. Items that
   * entered or left the stock since move no other item across pages (unlike an offset).
   */
  pageAfter(query: StockQuery, page: PageAfter): Promise<PageAfterResult>;
  /** detailed statistics over the whole result set */
  stats(query: StockQuery): Promise<DetailedPriceStats>;
  /** distinct values with item counts, most items first, then by value */
  facets(request: FacetRequest): Promise<FacetValue[]>;
  /** throws when the engine cannot answer (for /ready) */
  ping(): Promise<void>;
  // Writing is not the engine's business: the indexer (indexer/) keeps OpenSearch in step with
  // Postgres through the outbox, with external versions.
  close?(): Promise<void>;
}
