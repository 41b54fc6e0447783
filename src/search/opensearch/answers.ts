import type { Condition } from '../../db/schema.js';
import { noResultsStats, type HistogramBucket, type PriceStats, type PriceSummary } from '../engine.js';
import type { StockSource } from './documents.js';
import { averagePrice, roundPrice, toCents } from '../price-math.js';

/**
 * Reading the cluster's answers into the engine port's figures. The shapes below are the parts of
 * the answers to the requests queries.ts builds.
 */
/** What a stats aggregation answers. */
export interface StatsValue {
  count: number;
  min: number | null;
  max: number | null;
  avg: number | null;
  sum: number;
}
export interface Bucket<K> {
  key: K;
  doc_count: number;
}
/**
 * The field the price statistics aggregate, and the aggregation's name: `price_cents` (a long of
 * whole cents, mapping 5), whose sums are exact integers, so averages divided from them are exact;
 * `price` (scaled_float, read as doubles) only for an index whose documents lack `price_cents`
 * (ClusterCalls.searchWithStats).
 */
export type PriceField = 'price_cents' | 'price';
/** The price statistics of a set of documents, named after the field they aggregate (PriceField). */
export type PriceAggregation = { price_cents: StatsValue } | { price: StatsValue };
/**
 * The statistics' aggregations (queries.ts statsAggregations). The whole set's price figures are
 * its conditions' put together (wholeSet): every item has a condition, so they cover it.
 */
export interface StatsAggregations {
  /** a search's (the statistics endpoint counts them apart: detailed-stats.ts) */
  sellers?: { value: number };
  by_condition: { buckets: ConditionBucket[] };
  by_country?: { buckets: (Bucket<string> & PriceAggregation)[] };
  /** the statistics endpoint's groups as the cluster answers them (conditionsAndCountries) */
  countries?: { buckets: (Bucket<string> & { conditions: { buckets: ConditionBucket[] } })[] };
  percentiles?: { values: Record<string, number | null> };
}
type ConditionBucket = Bucket<Condition> & PriceAggregation;

/** The country of the group of items without one (queries.ts statsAggregations): not a country. */
export const NO_COUNTRY = '-';
export interface SearchAnswer {
  timed_out?: boolean;
  _shards?: { failed?: number };
  /** `sort`: the hit's sort values (queries.ts stockSort), for the page after it */
  hits: {
    total?: { value: number } | number;
    /** `fields`: the doc values asked for (the statistics' first request asks `vendor_id`) */
    hits: { _source?: StockSource; sort?: number[]; fields?: Record<string, unknown[]> }[];
  };
  aggregations?: StatsAggregations;
}

/** One failed search of an msearch: its own status and error instead of an answer. */
export interface MsearchError {
  status?: number;
  error?: { type?: string; reason?: string };
}

/** A search the cluster stopped at its time budget or answered from only some shards: never shown. */
export class IncompleteAnswerError extends Error {
  constructor(detail: string) {
    super(`incomplete search answer: ${detail}`);
    this.name = 'IncompleteAnswerError';
  }
}

/** Count, min, max and sum of a set of prices, in whole cents. */
interface Cents {
  count: number;
  min: number;
  max: number;
  sum: number;
}

/**
 * The price statistics in whole cents. Over `price_cents` they are integers already: the sum of
 * longs is exact (below 2^53 cents, 90 trillion euros). Over `price` (scaled_float, an index
 * without `price_cents`) the cluster reads each price as the long times 0.01, a double (0.35 as
 * 0.35000000000000003), and sums those, so each figure is rounded back to cents: exact for min and
 * max, and for the sum as long as its error stays below half a cent (the cluster sums with Kahan
 * compensation).
 */
function cents(a: PriceAggregation): Cents {
  if ('price_cents' in a) {
    const s = a.price_cents;
    return { count: s.count, min: s.min ?? 0, max: s.max ?? 0, sum: Math.round(s.sum) };
  }
  const s = a.price;
  return { count: s.count, min: toCents(s.min ?? 0), max: toCents(s.max ?? 0), sum: toCents(s.sum) };
}

/** The statistics of several sets of prices (over the same field) as those of their union. */
function together(parts: PriceAggregation[]): PriceAggregation {
  const field: PriceField = parts.some((p) => 'price' in p) ? 'price' : 'price_cents';
  const values = parts.map((p) => ('price' in p ? p.price : p.price_cents)).filter((v) => v.count > 0);
  const count = values.reduce((n, v) => n + v.count, 0);
  const sum = values.reduce((n, v) => n + v.sum, 0);
  const stats: StatsValue = {
    count,
    min: count === 0 ? null : Math.min(...values.map((v) => v.min!)),
    max: count === 0 ? null : Math.max(...values.map((v) => v.max!)),
    sum,
    avg: count === 0 ? null : sum / count,
  };
  return field === 'price' ? { price: stats } : { price_cents: stats };
}

/**
 * The whole set's figures, in whole cents, from its conditions' (every item has one: the column is
 * NOT NULL). Exact: counts and sums of whole cents add up, the extremes are the extremes'. The
 * cluster is not asked for them over the whole set too, which would read every price once more.
 */
const wholeSet = (aggs: StatsAggregations): Cents => cents(together(aggs.by_condition.buckets));

/**
 * Every money figure from whole cents: min and max divided back, the average divided in integers
 * and rounded as the Postgres engine's numeric rounds (never the cluster's `avg`, a quotient of
 * doubles that lands just below a half cent as often as not).
 */
export function summary(a: PriceAggregation): PriceSummary {
  return summaryOfCents(cents(a));
}

function summaryOfCents(c: Cents): PriceSummary {
  return {
    count: c.count,
    priceMin: c.min / 100,
    priceMax: c.max / 100,
    priceAvg: c.count === 0 ? 0 : averagePrice(c.sum, c.count),
  };
}

/** The search statistics; `sellers`, when counted apart from the aggregations (detailed-stats.ts). */
export function priceStats(
  total: number,
  aggs: StatsAggregations | undefined,
  sellers = aggs?.sellers?.value ?? 0,
): PriceStats {
  if (!aggs || total === 0) {
    return noResultsStats();
  }
  const byCondition: PriceStats['byCondition'] = {};
  for (const b of aggs.by_condition.buckets) byCondition[b.key] = summary(b);
  const all = summaryOfCents(wholeSet(aggs));
  return {
    totalResults: total,
    priceMin: all.priceMin,
    priceMax: all.priceMax,
    priceAvg: all.priceAvg,
    totalSellers: sellers,
    byCondition,
  };
}

/** Buckets in the order a terms aggregation gives them: most items first, then by key. */
const inTermsOrder = <B extends Bucket<string>>(buckets: B[]) =>
  buckets.sort((a, b) => b.doc_count - a.doc_count || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

/**
 * The statistics endpoint's figures by condition and by country, put together from its groups (by
 * country, then condition within each: queries.ts statsAggregations). Exact, as wholeSet is: counts
 * and sums add up, extremes are the extremes'. An answer without the groups is returned as it is.
 */
export function conditionsAndCountries(answer: SearchAnswer): SearchAnswer {
  const aggs = answer.aggregations;
  if (!aggs?.countries) return answer;
  const conditions = new Map<Condition, ConditionBucket[]>();
  const byCountry: (Bucket<string> & PriceAggregation)[] = [];
  for (const country of aggs.countries.buckets) {
    const parts = country.conditions.buckets;
    for (const part of parts) {
      const same = conditions.get(part.key);
      if (same) same.push(part);
      else conditions.set(part.key, [part]);
    }
    if (country.key !== NO_COUNTRY)
      byCountry.push({ key: country.key, doc_count: country.doc_count, ...together(parts) });
  }
  const byCondition = [...conditions].map(([key, parts]) => ({
    key,
    doc_count: parts.reduce((n, p) => n + p.doc_count, 0),
    ...together(parts),
  }));
  return {
    ...answer,
    aggregations: {
      ...aggs,
      by_condition: { buckets: inTermsOrder(byCondition) },
      by_country: { buckets: inTermsOrder(byCountry) },
    },
  };
}

/**
 * Whether the price statistics over `price_cents` miss documents: fewer values than hits means
 * documents without the field (the live index of mapping 4 or older while the indexer rebuilds
 * it, or documents an indexer of an older release wrote). Their figures would be wrong, so the
 * search is asked again over `price`.
 */
export function lacksCents(answer: SearchAnswer): boolean {
  const aggs = answer.aggregations;
  return (
    aggs !== undefined && aggregatedOver(answer) === 'price_cents' && wholeSet(aggs).count !== totalOf(answer)
  );
}

/** The field an answer's price statistics aggregated (searchWithStats asks `price` when it must). */
export const aggregatedOver = (answer: SearchAnswer): PriceField =>
  answer.aggregations?.by_condition.buckets.some((b) => 'price' in b) ? 'price' : 'price_cents';

export const totalOf = (answer: SearchAnswer): number => {
  const total = answer.hits.total;
  return typeof total === 'number' ? total : (total?.value ?? 0);
};

/**
 * An answer the cluster stopped at its time budget (timed_out) or gave from only some shards: its
 * hits and figures would be wrong, so it is never shown. Thrown as the incomplete answer, which the
 * engine reports as the cluster being unavailable.
 */
export function completeAnswer(answer: SearchAnswer): SearchAnswer {
  if (answer.timed_out) throw new IncompleteAnswerError('timed out');
  if ((answer._shards?.failed ?? 0) > 0) {
    throw new IncompleteAnswerError(`${answer._shards!.failed} shard(s) failed`);
  }
  return answer;
}

/** The histogram's counts, bucket by bucket, from a range aggregation over the same bounds. */
export function bucketCounts(
  bounds: { from: number; to: number }[],
  answer: SearchAnswer,
): HistogramBucket[] {
  const buckets = (answer.aggregations as unknown as { histogram: { buckets: { doc_count: number }[] } })
    .histogram.buckets;
  return bounds.map((b, i) => ({ ...b, count: buckets[i]?.doc_count ?? 0 }));
}

/**
 * The price, in euros, of the one hit of a search sorted by price, at its rank: its sort value, in
 * whole cents or (`price`, an index of an older mapping) in euros.
 */
export function priceAtRank(answer: SearchAnswer, sortedBy: PriceField): number {
  const [hit] = answer.hits.hits as { sort?: number[] }[];
  if (!hit) throw new IncompleteAnswerError('no hit at a quartile rank');
  if (!hit.sort) throw new IncompleteAnswerError('a hit without its price');
  return roundPrice(sortedBy === 'price_cents' ? hit.sort[0]! / 100 : hit.sort[0]!);
}

/** The cluster's count of distinct sellers (a cardinality aggregation). */
export const sellersCounted = (answer: SearchAnswer): number => answer.aggregations?.sellers?.value ?? 0;

/** The cluster's estimate of percentile p, in euros (used past the result window; percentilesBody). */
export function estimatedPercentile(answer: SearchAnswer, p: number): number | null {
  const cents = answer.aggregations?.percentiles?.values[`${p}.0`];
  return cents === undefined || cents === null ? null : roundPrice(cents / 100);
}
