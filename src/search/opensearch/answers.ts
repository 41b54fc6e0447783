import type { Condition } from '../../db/schema.js';
import { noResultsStats, type HistogramBucket, type PriceStats, type PriceSummary } from '../engine.js';
import type { StockSource } from './documents.js';
import { roundPrice } from '../price-math.js';

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
}
export interface Bucket<K> {
  key: K;
  doc_count: number;
}
export interface StatsAggregations {
  price: StatsValue;
  sellers: { value: number };
  by_condition: { buckets: (Bucket<Condition> & { price: StatsValue })[] };
  by_country?: { buckets: (Bucket<string> & { price: StatsValue })[] };
  percentiles?: { values: Record<string, number | null> };
}
export interface SearchAnswer {
  timed_out?: boolean;
  _shards?: { failed?: number };
  hits: { total?: { value: number } | number; hits: { _source?: StockSource }[] };
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

/**
 * Prices are indexed as scaled_float (cents as a long): the cluster computes min, max and sums on
 * the long and multiplies by 0.01 on the way out, so 0.35 comes back as 0.35000000000000003.
 * Every money figure is rounded back to cents here.
 */
const money = (value: number | null): number | null => (value === null ? null : roundPrice(value));

export const summary = (s: StatsValue): PriceSummary => ({
  count: s.count,
  priceMin: roundPrice(s.min ?? 0),
  priceMax: roundPrice(s.max ?? 0),
  priceAvg: roundPrice(s.avg ?? 0),
});

export function priceStats(total: number, aggs: StatsAggregations | undefined): PriceStats {
  if (!aggs || total === 0) {
    return noResultsStats();
  }
  const byCondition: PriceStats['byCondition'] = {};
  for (const b of aggs.by_condition.buckets) byCondition[b.key] = summary(b.price);
  return {
    totalResults: total,
    priceMin: money(aggs.price.min),
    priceMax: money(aggs.price.max),
    priceAvg: money(aggs.price.avg),
    totalSellers: aggs.sellers.value,
    byCondition,
  };
}

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

/** The prices of the hits of a search sorted by price (their sort values), in cents, in order. */
export function sortedPrices(answer: SearchAnswer): number[] {
  return (answer.hits.hits as { sort?: number[] }[]).map((hit) => {
    if (!hit.sort) throw new IncompleteAnswerError('a hit without its price');
    return roundPrice(hit.sort[0]!);
  });
}

/** The price of the one hit of a search sorted by price, at its rank. */
export function priceAtRank(answer: SearchAnswer): number {
  const [price] = sortedPrices(answer);
  if (price === undefined) throw new IncompleteAnswerError('no hit at a quartile rank');
  return price;
}

/** The cluster's t-digest estimate of percentile p (used past the result window). */
export function estimatedPercentile(aggs: StatsAggregations, p: number): number | null {
  const value = aggs.percentiles?.values[`${p}.0`];
  return value === undefined || value === null ? null : roundPrice(value);
}
