import { noResultsStats, type DetailedPriceStats, type PriceSummary, type StockQuery } from '../engine.js';
import { histogramBounds, quartileRanks, quartilesFromRanks } from '../price-math.js';
import { MAX_RESULT_WINDOW } from '../result-window.js';
import {
  aggregatedOver,
  bucketCounts,
  estimatedPercentile,
  priceAtRank,
  priceStats,
  sellersCounted,
  summary,
  totalOf,
} from './answers.js';
import type { ClusterCalls } from './cluster-calls.js';
import {
  histogramBody,
  hitsFiguresBody,
  percentilesBody,
  priceAtRankBody,
  sellersBody,
  statsBody,
} from './queries.js';
import { statsOfHits } from './stats-of-hits.js';

/** The detailed statistics of an empty result set. */
const noResults = (): DetailedPriceStats => ({
  ...noResultsStats(),
  priceMedian: null,
  priceP25: null,
  priceP75: null,
  histogram: [],
  byCountry: {},
});

/**
 * The figures of the whole result set. A search by reference (a handful of items) first reads its
 * hits in price order with what the figures are made of, and computes every figure from them
 * (stats-of-hits.ts): one request, nothing for the cluster to aggregate. Otherwise the cluster
 * aggregates (reading hits first would sort a broad result set for nothing), and a result set that
 * then shows it fits has its figures computed from its hits the same way (a second request), the
 * stock being the same or the hits agreeing with themselves. A larger one takes one more
 * round trip (an msearch) for what needs the min and max or the whole set: the histogram's
 * buckets, the sellers' count (cardinality), and the quartiles, exact (as PostgreSQL's
 * percentile_cont computes them) from the prices at their ranks in price order while the result
 * set fits the result window, the cluster's estimates (percentilesBody) beyond it.
 */
export async function detailedStats(
  cluster: ClusterCalls,
  query: StockQuery,
  pricesReadAtOnce: number,
): Promise<DetailedPriceStats> {
  const deadline = cluster.deadline();
  /** every figure from the hits, when they are the whole set (else null) */
  const fromHits = async () => {
    const read = await cluster.search(hitsFiguresBody(query, pricesReadAtOnce), deadline, query);
    return totalOf(read) === 0 ? noResults() : statsOfHits(read);
  };
  if (query.reference !== undefined) {
    const figures = await fromHits();
    if (figures) return figures;
  }
  const answer = await cluster.searchWithStats((prices) => statsBody(query, prices), deadline, query);
  const total = totalOf(answer);
  const aggs = answer.aggregations;
  const base = priceStats(total, aggs);
  if (!aggs || base.priceMin === null || base.priceMax === null) return noResults();
  if (total <= pricesReadAtOnce && query.reference === undefined) {
    // the stock may have changed since: the hits' figures agree with themselves, or are not used
    const figures = await fromHits();
    if (figures) return figures;
  }
  const byCountry: Record<string, PriceSummary> = {};
  for (const b of aggs.by_country?.buckets ?? []) byCountry[b.key] = summary(b);
  const bounds = histogramBounds(base.priceMin, base.priceMax);
  const exact = total <= MAX_RESULT_WINDOW;
  const ranks = exact ? quartileRanks(total) : [];
  // the field the figures were aggregated over: the ranks are read in it too
  const prices = aggregatedOver(answer);
  const [sellers, ...answers] = await cluster.searchMany(
    [
      sellersBody(query),
      ...(exact ? [] : [percentilesBody(query)]),
      ...(bounds.length > 1 ? [histogramBody(query, bounds)] : []),
      ...ranks.map((rank) => priceAtRankBody(query, rank, prices)),
    ],
    deadline,
    query,
  );
  const estimated = exact ? null : answers.shift()!;
  const histogram =
    bounds.length > 1 ? bucketCounts(bounds, answers.shift()!) : [{ ...bounds[0]!, count: total }];
  const [p25, p50, p75] = estimated
    ? [25, 50, 75].map((p) => estimatedPercentile(estimated, p))
    : quartilesFromRanks(total, new Map(ranks.map((rank, i) => [rank, priceAtRank(answers[i]!, prices)])));
  return {
    ...base,
    totalSellers: sellersCounted(sellers!),
    priceMedian: p50!,
    priceP25: p25!,
    priceP75: p75!,
    histogram,
    byCountry,
  };
}
