import { noResultsStats, type DetailedPriceStats, type PriceSummary, type StockQuery } from '../engine.js';
import { bucketPrices, histogramBounds, quartileRanks, quartilesFromRanks } from '../price-math.js';
import { MAX_RESULT_WINDOW } from '../result-window.js';
import {
  bucketCounts,
  estimatedPercentile,
  priceAtRank,
  priceStats,
  sellersCounted,
  sellersOfHits,
  sortedPrices,
  summary,
  totalOf,
} from './answers.js';
import type { ClusterCalls } from './cluster-calls.js';
import {
  histogramBody,
  hitsFiguresBody,
  percentilesBody,
  priceAtRankBody,
  pricesBody,
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
 * aggregates (reading hits first would sort a broad result set for nothing). A result set that
 * then shows it fits has its prices and sellers read in price order (a second request), and its
 * quartiles, histogram and sellers' count computed from them, exactly. A larger one takes one more
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
  if (query.reference !== undefined) {
    const hits = await cluster.search(hitsFiguresBody(query, pricesReadAtOnce), deadline, query);
    if (totalOf(hits) === 0) return noResults();
    const figures = statsOfHits(hits);
    if (figures) return figures;
  }
  const answer = await cluster.searchWithStats((prices) => statsBody(query, prices), deadline, query);
  const total = totalOf(answer);
  const aggs = answer.aggregations;
  const base = priceStats(total, aggs);
  if (!aggs || base.priceMin === null || base.priceMax === null) return noResults();
  const byCountry: Record<string, PriceSummary> = {};
  for (const b of aggs.by_country?.buckets ?? []) byCountry[b.key] = summary(b);

  if (total <= pricesReadAtOnce) {
    const read = await cluster.search(pricesBody(query, total), deadline, query);
    // from the prices read (the stock may have changed between two requests: they agree with themselves)
    const prices = sortedPrices(read);
    const [p25, p50, p75] = quartilesFromRanks(
      prices.length,
      new Map(prices.map((price, rank) => [rank, price])),
    );
    const histogram = bucketPrices(prices, base.priceMin, base.priceMax);
    return {
      ...base,
      totalSellers: sellersOfHits(read),
      priceMedian: p50!,
      priceP25: p25!,
      priceP75: p75!,
      histogram,
      byCountry,
    };
  }
  const bounds = histogramBounds(base.priceMin, base.priceMax);
  const exact = total <= MAX_RESULT_WINDOW;
  const ranks = exact ? quartileRanks(total) : [];
  const [sellers, ...answers] = await cluster.searchMany(
    [
      sellersBody(query),
      ...(exact ? [] : [percentilesBody(query)]),
      ...(bounds.length > 1 ? [histogramBody(query, bounds)] : []),
      ...ranks.map((rank) => priceAtRankBody(query, rank)),
    ],
    deadline,
    query,
  );
  const estimated = exact ? null : answers.shift()!;
  const histogram =
    bounds.length > 1 ? bucketCounts(bounds, answers.shift()!) : [{ ...bounds[0]!, count: total }];
  const [p25, p50, p75] = estimated
    ? [25, 50, 75].map((p) => estimatedPercentile(estimated, p))
    : quartilesFromRanks(total, new Map(ranks.map((rank, i) => [rank, priceAtRank(answers[i]!)])));
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
