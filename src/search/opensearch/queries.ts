import { createHash } from 'node:crypto';
import type { API, Types } from '@opensearch-project/opensearch';
import type { FacetRequest, PageRequest, StockQuery } from '../engine.js';
import { fold } from '../references.js';
import { textWords } from '../text-query.js';
import { NO_COUNTRY, type PriceField } from './answers.js';
import { FIGURE_FIELDS } from './stats-of-hits.js';

type Query = Types.Common_QueryDsl.QueryContainer;
type Aggregations = Record<string, Types.Common_Aggregations.AggregationContainer>;
type Sort = Types.Common.SortCombinations[];

/** cardinality is exact below this many distinct vendors, approximate above. */
export const VENDOR_PRECISION_THRESHOLD = 40_000;

/**
 * How much more a word in the title counts than one anywhere in title + description, as ts_rank
 * weighs the title ('A', 1.0) above the description ('B', 0.4) on the Postgres engine.
 */
const TITLE_BOOST = 2.5;

/**
 * Where a listing's words are analysed in its language: `text_lang.*` (mapping 9: each item in its
 * own language only), and `text_all.*`, the six sub-fields every item was analysed in before, for a
 * live index of mapping 8 or older while the indexer rebuilds it. A pattern that names no field of
 * the index matches nothing rather than failing.
 */
const LANGUAGE_FIELDS = ['text_lang.*', 'text_all.*'];

/**
 * The same filters as the Postgres engine, as one bool query (filters do not score). `scored`: with
 * the clauses that only order a text search's hits (its should clauses); a statistics request,
 * which orders nothing by relevance, leaves them out (setQuery).
 */
export function stockQuery(q: StockQuery, { scored = true } = {}): Query {
  const filter: Query[] = [];
  const must: Query[] = [];
  if (q.reference !== undefined)
    filter.push({ term: { references_norm: q.reference.normalized.toLowerCase() } });
  if (q.vehicleMake !== undefined) filter.push({ term: { vehicle_make: fold(q.vehicleMake) } });
  if (q.vehicleModel !== undefined) {
    const model = fold(q.vehicleModel);
    // Whole words from the start: "golf" and "golf vii", never "golfinho".
    filter.push({
      bool: {
        should: [{ term: { vehicle_model: model } }, { prefix: { vehicle_model: `${model} ` } }],
        minimum_should_match: 1,
      },
    });
  }
  if (q.partId !== undefined) filter.push({ term: { part_id: q.partId } });
  if (q.condition !== undefined) filter.push({ term: { condition: q.condition } });
  if (q.isOem !== undefined) filter.push({ term: { is_oem: q.isOem } });
  if (q.isAftermarket !== undefined) filter.push({ term: { is_aftermarket: q.isAftermarket } });
  if (q.country !== undefined) filter.push({ term: { country_code: q.country } });
  if (q.priceMin !== undefined || q.priceMax !== undefined) {
    filter.push({
      range: {
        price: {
          ...(q.priceMin !== undefined ? { gte: q.priceMin } : {}),
          ...(q.priceMax !== undefined ? { lte: q.priceMax } : {}),
        },
      },
    });
  }
  const should: Query[] = [];
  if (q.text !== undefined) {
    // Matching as in Postgres: every word a whole word of title + description (text_all, copy_to),
    // the last one as a prefix, accents folded, words cut as textWords cuts them (the analyzer's
    // pattern tokenizer). The should clauses only score, like ts_rank over a title weighted above
    // the description:
    // - whole words in the title (BM25, so the title's weight grows with the word's rarity as the
    //   description's does: a flat bonus would be outweighed by a rare word's description score);
    // - the last word as a prefix of a title word, so a title match still counts while the last
    //   word is being typed (a prefix scores the same for every item: a flat bonus);
    // - whole words in the listing's language (stemming, stop words; those would match more, so
    //   they never decide what is found), or the best-fitting one where it is not known. Without
    //   these a one-word search would be ordered by price alone.
    // title.folded is a sub-field (mapping 3): on an index of mapping 2, still live while the
    // indexer rebuilds it, it is an unmapped field that matches nothing, where a query on the
    // unindexed title itself would fail every text search.
    const terms = textWords(fold(q.text));
    const words = terms.join(' ');
    must.push({ multi_match: { query: words, type: 'bool_prefix', operator: 'and', fields: ['text_all'] } });
    if (scored)
      should.push(
        { match: { 'title.folded': { query: words, boost: TITLE_BOOST } } },
        { prefix: { 'title.folded': { value: terms[terms.length - 1]!, boost: TITLE_BOOST } } },
        { multi_match: { query: words, type: 'best_fields', fields: LANGUAGE_FIELDS } },
      );
  }
  return { bool: { filter, ...(must.length ? { must } : {}), ...(should.length ? { should } : {}) } };
}

/**
 * The search preference of a query: the same string for every page of one search (whatever its
 * page and size, and however its fields are spelled: the fields a search token is bound to), so
 * the cluster routes them all to the same copy of each shard.
 */
export function searchPreference(asked: StockQuery | FacetRequest): string {
  const key = 'field' in asked ? JSON.stringify(asked) : asked.key;
  // never starting with "_", which the cluster reads as one of its own preferences (_local…)
  return `q${createHash('sha256').update(key).digest('base64url').slice(0, 22)}`;
}

/**
 * Relevance for text, else price; the id always breaks ties so pages never overlap. The price is
 * `price_cents` (mapping 5): a long sorts cheaper than `price` (a scaled_float, read as doubles),
 * and its values are whole cents, which a search_after compares exactly (the cluster, 2.19, reads
 * one for a scaled_float sort wrongly and skips hits). Whole cents order as prices do, so the order
 * is the same. `price` only for an index of an older mapping (PriceField).
 */
export function stockSort(q: StockQuery, prices: PriceField = 'price_cents'): Sort {
  // unmapped_type: an index of mapping 4 has no `price_cents` until the indexer adds it; its page
  // is then asked again sorted by `price` (ClusterCalls.searchWithStats), not refused
  const price = prices === 'price_cents' ? { order: 'asc', unmapped_type: 'long' } : { order: 'asc' };
  const byPrice: Sort = [{ [prices]: price }, { id: { order: 'asc' } }];
  return q.text !== undefined ? [{ _score: { order: 'desc' } }, ...byPrice] : byPrice;
}

/**
 * The client's generated types (from the OpenSearch API specification) leave `field` out of
 * several aggregations (terms, cardinality); these helpers add it without giving up the rest of
 * the typing. A returned object is not a fresh literal, so it fits the generated property type.
 */
type Field = { field: string };
const terms = (fields: Types.Common_Aggregations.TermsAggregationFields & Field) => fields;
const cardinality = (fields: Types.Common_Aggregations.CardinalityAggregation & Field) => fields;
const percentiles = (fields: Types.Common_Aggregations.PercentilesAggregation & Field) => fields;

const priceStats = (field: PriceField): Aggregations => ({ [field]: { stats: { field } } });

/** The sellers' count: exact below VENDOR_PRECISION_THRESHOLD distinct sellers. */
const sellersCount = (): Aggregations => ({
  sellers: {
    cardinality: cardinality({ field: 'vendor_id', precision_threshold: VENDOR_PRECISION_THRESHOLD }),
  },
});

/**
 * The price statistics of a search (with its sellers' count), computed in the same request as the
 * page; `detailed`, the statistics endpoint's first request: by country too, without the sellers'
 * count and the percentiles, which only a result set too large to read whole needs (detailed-stats.ts).
 * Its items are grouped once, by country and, within each, by condition: each item's price is read
 * into one group instead of one per grouping, and the conditions' figures and the countries' are
 * put together from the groups (answers.ts conditionsAndCountries).
 */
export function statsAggregations(
  kind: 'search' | 'detailed',
  prices: PriceField = 'price_cents',
): Aggregations {
  const byCondition = { terms: terms({ field: 'condition', size: 10 }), aggs: priceStats(prices) };
  if (kind === 'search') {
    // no figures over the whole set: its conditions' add up to them (answers.ts wholeSet)
    return { ...sellersCount(), by_condition: byCondition };
  }
  return {
    countries: {
      // an item without a country (none is written without one) still counts in its condition
      terms: terms({ field: 'country_code', size: 300, missing: NO_COUNTRY }),
      aggs: { conditions: byCondition },
    },
  };
}

/**
 * A page and its exact total, sorted by `prices`; with `withStats`, the search statistics over the
 * same field in the same request.
 */
export function searchBody(
  q: StockQuery,
  page: PageRequest,
  { withStats, prices = 'price_cents' }: { withStats: boolean; prices?: PriceField },
): API.Search_RequestBody {
  return {
    ...pageBody(q, page, prices),
    track_total_hits: true,
    ...(withStats ? { aggs: statsAggregations('search', prices) } : {}),
  };
}

/**
 * A result set of more than this many items has a page beside its kept statistics asked uncounted
 * (pageBody), its total by a count of its own (countBody) in the same round trip. Below it, sorting
 * the whole set costs the cluster less than a second search does.
 */
export const COUNTED_APART_ABOVE = 10_000;

/**
 * Only a page that starts within this many items is counted apart: a deeper one has each shard
 * collect every item up to the page's end and the node sort them all, whichever way it is asked,
 * and a second search would only add its own cost (a jump with the search token; the next page
 * is read after the last hit instead, pageAfterBody).
 */
export const COUNTED_APART_OFFSETS_BELOW = 1_000;

/**
 * The items after a hit in price order (its sort values: the price in whole cents, the id), what
 * search_after reads, as a query; or the items up to it, the hit included. Both by the price's
 * points: each reads only its side of the hit.
 */
function hitSide([cents, id]: number[], side: 'after' | 'upTo'): Query {
  const after = side === 'after';
  return {
    bool: {
      should: [
        { range: { price_cents: after ? { gt: cents } : { lt: cents } } },
        {
          bool: {
            filter: [{ term: { price_cents: cents } }, { range: { id: after ? { gt: id } : { lte: id } } }],
          },
        },
      ],
      minimum_should_match: 1,
    },
  };
}

/**
 * A deeper page in price order read among the items after a hit the result set reached before it
 * (PriceAnchors), the `upTo` items up to that hit taken off its offset: each shard collects the
 * items from that hit to the page's end instead of every item up to it. Not counted, so it skips
 * what can no longer enter the page (pageBody). (search_after itself reads no offset.)
 */
export function pageAfterHitBody(
  q: StockQuery,
  page: PageRequest,
  hit: number[],
  upTo: number,
): API.Search_RequestBody {
  return {
    query: { bool: { filter: [stockQuery(q), hitSide(hit, 'after')] } },
    sort: stockSort(q),
    from: (page.page - 1) * page.perPage - upTo,
    size: page.perPage,
    track_total_hits: false,
  };
}

/** The items of a search up to a hit in price order, the hit included: those before the page read after it. */
export function countUpToHitBody(q: StockQuery, hit: number[]): API.Search_RequestBody {
  return {
    query: { bool: { filter: [setQuery(q), hitSide(hit, 'upTo')] } },
    size: 0,
    track_total_hits: true,
  };
}

/**
 * A page alone, not counted, sorted by `prices`. An uncounted page lets each shard skip whatever
 * can no longer enter the page instead of collecting every matching item, which counting them
 * exactly would have it visit: by price, sorted by `price_cents`, which is indexed (mapping 6:
 * Lucene's sort by points); by relevance, the blocks of matches whose best possible score falls
 * short of the page (block-max WAND), where a counted search scores every match in every language.
 */
export function pageBody(
  q: StockQuery,
  page: PageRequest,
  prices: PriceField = 'price_cents',
): API.Search_RequestBody {
  return {
    query: stockQuery(q),
    sort: stockSort(q, prices),
    from: (page.page - 1) * page.perPage,
    size: page.perPage,
    track_total_hits: false,
  };
}

/**
 * The page after a hit (its sort values, the price in whole cents): the page alone, neither counted
 * nor aggregated. Each shard reads only what follows the hit, where an offset makes it sort its way
 * past every earlier page.
 */
export function pageAfterBody(q: StockQuery, after: number[], perPage: number): API.Search_RequestBody {
  return {
    query: stockQuery(q),
    sort: stockSort(q, 'price_cents'),
    search_after: after,
    size: perPage,
    track_total_hits: false,
  };
}

/**
 * A result set this small has its figures computed from its hits (read in price order with their
 * doc values, no document read: stats-of-hits.ts) rather than aggregated by the cluster. A
 * reference's statistics read them first (one round trip when they fit: nearly every reference).
 * Reading hits costs the cluster more per hit than aggregating: past about fifty items the
 * aggregations with the quartiles' ranks are the cheaper second round trip (npm run
 * bench:stats-sizes compares the two ways by result set size).
 */
export const PRICES_READ_AT_ONCE = 100;

/**
 * The items a statistics request counts: the search's, without the clauses that only score them
 * (the cluster would still build their weights, and a sort by price reads no score).
 */
const setQuery = (q: StockQuery): Query => stockQuery(q, { scored: false });

/** The detailed statistics (without what a small result set's hits give: detailed-stats.ts). */
export function statsBody(q: StockQuery, field: PriceField = 'price_cents'): API.Search_RequestBody {
  return {
    query: setQuery(q),
    size: 0,
    track_total_hits: true,
    aggs: statsAggregations('detailed', field),
  };
}

/**
 * A search's statistics alone, with its exact total and no page (size 0: the shard request cache
 * keeps the answer until the index changes): what a text search's first page is asked beside
 * (OpenSearchEngine.firstPage). Its items are counted unscored.
 */
export function searchStatsBody(q: StockQuery, prices: PriceField = 'price_cents'): API.Search_RequestBody {
  return { query: setQuery(q), size: 0, track_total_hits: true, aggs: statsAggregations('search', prices) };
}

/**
 * The first `prices` hits of the result set in price order, each with what the figures are made
 * of (FIGURE_FIELDS), and the total: a result set that fits has every figure computed from them
 * (stats-of-hits.ts), with nothing aggregated by the cluster.
 */
export function hitsFiguresBody(q: StockQuery, prices: number): API.Search_RequestBody {
  return {
    query: setQuery(q),
    size: prices,
    // whole cents: a long sorts at a fraction of the cost of a scaled_float read as doubles (an
    // index without them, of an older mapping, sorts them all last: its hits give no figures)
    sort: [{ price_cents: { order: 'asc', unmapped_type: 'long' } }],
    _source: false,
    docvalue_fields: [...FIGURE_FIELDS],
    track_total_hits: true,
  };
}

/**
 * The exact number of items a search finds, alone: a count, which reads no value of any item (a
 * size-0 body, kept by the shard request cache until the index changes).
 */
export function countBody(q: StockQuery): API.Search_RequestBody {
  return { query: setQuery(q), size: 0, track_total_hits: true };
}

/** The sellers' count of a result set too large to count from its hits. */
export function sellersBody(q: StockQuery): API.Search_RequestBody {
  return { query: setQuery(q), size: 0, track_total_hits: false, aggs: sellersCount() };
}

/**
 * The significant digits of the cluster's quartile estimates beyond the result window: an HDR
 * histogram of whole cents holds every value within 0.1 % (3 digits), at a fraction of the cost of
 * a t-digest, whose error has no bound.
 */
export const ESTIMATE_DIGITS = 3;

/** The cluster's estimated quartiles, for a result set beyond the result window (in cents). */
export function percentilesBody(q: StockQuery): API.Search_RequestBody {
  return {
    query: setQuery(q),
    size: 0,
    track_total_hits: false,
    aggs: {
      percentiles: {
        percentiles: percentiles({
          field: 'price_cents',
          percents: [25, 50, 75],
          hdr: { number_of_significant_value_digits: ESTIMATE_DIGITS },
        }),
      },
    },
  };
}

/** Equal-width price buckets from min to max (the last one closed), like the Postgres engine's. */
export function histogramBody(q: StockQuery, bounds: { from: number; to: number }[]): API.Search_RequestBody {
  return {
    query: setQuery(q),
    size: 0,
    aggs: {
      histogram: {
        range: {
          field: 'price',
          ranges: bounds.map((b, i) =>
            i === bounds.length - 1 ? { from: b.from } : { from: b.from, to: b.to },
          ),
        },
      },
    },
  };
}

/**
 * The price at one rank of the result set in price order (its sort value, in the unit of `prices`:
 * whole cents, or euros on an index of an older mapping; no document read).
 */
export function priceAtRankBody(q: StockQuery, rank: number, prices: PriceField): API.Search_RequestBody {
  return {
    query: setQuery(q),
    sort: [{ [prices]: { order: 'asc' } }],
    from: rank,
    size: 1,
    _source: false,
    track_total_hits: false,
  };
}

const FACET_FIELDS = { make: 'vehicle_make', model: 'vehicle_model', variant: 'vehicle_variant' } as const;

/** Distinct values (folded) with counts, most items first; the displayed spelling is the smallest. */
export function facetsBody(request: FacetRequest): API.Search_RequestBody {
  const filter: Query[] = [];
  if (request.make !== undefined) filter.push({ term: { vehicle_make: fold(request.make) } });
  if (request.model !== undefined) filter.push({ term: { vehicle_model: fold(request.model) } });
  const field = FACET_FIELDS[request.field];
  return {
    size: 0,
    query: { bool: { filter } },
    aggs: {
      values: {
        terms: terms({ field, size: 10_000, order: [{ _count: 'desc' }, { _key: 'asc' }] }),
        aggs: { spelling: { terms: terms({ field: `${field}.raw`, size: 1, order: { _key: 'asc' } }) } },
      },
    },
  };
}
