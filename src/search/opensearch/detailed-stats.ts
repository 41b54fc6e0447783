import type { DetailedPriceStats, PriceSummary, StockQuery } from '../engine.js';
import { bucketPrices, histogramBounds, quartileRanks, quartilesFromRanks } from '../price-math.js';
import { MAX_RESULT_WINDOW } from '../result-window.js';
import {
  bucketCounts,
  estimatedPercentile,
  priceAtRank,
  priceStats,
  sortedPrices,
  summary,
  totalOf,
} from './answers.js';
import type { ClusterCalls } from './cluster-calls.js';
import { histogramBody, priceAtRankBody, statsBody } from './queries.js';

/**
 * The figures of the whole result set; a small one has its prices read in the same request, in
 * order, and its quartiles and histogram computed from them. A larger one takes one more round trip
 * for what needs the min and max first: the histogram's buckets, and the quartiles, exact (as
 * PostgreSQL's percentile_cont computes them) from the prices at their ranks in price order while
 * the result set fits the result window, the cluster's t-digest estimates beyond it.
 */
export async function detailedStats(
  cluster: ClusterCalls,
  query: StockQuery,
  pricesReadAtOnce: number,
): Promise<DetailedPriceStats> {
  const deadline = cluster.deadline();
  const answer = await cluster.searchWithStats(
    (prices) => statsBody(query, pricesReadAtOnce, prices),
    deadline,
    query,
  );
  const total = totalOf(answer);
  const base = priceStats(total, answer.aggregations);
  const aggs = answer.aggregations;
  if (!aggs || base.priceMin === null || base.priceMax === null) {
    return { ...base, priceMedian: null, priceP25: null, priceP75: null, histogram: [], byCountry: {} };
  }
  const byCountry: Record<string, PriceSummary> = {};
  for (const b of aggs.by_country?.buckets ?? []) byCountry[b.key] = summary(b);

  if (total <= pricesReadAtOnce) {
    const prices = sortedPrices(answer);
    const [p25, p50, p75] = quartilesFromRanks(total, new Map(prices.map((price, rank) => [rank, price])));
    const histogram = bucketPrices(prices, base.priceMin, base.priceMax);
    return { ...base, priceMedian: p50!, priceP25: p25!, priceP75: p75!, histogram, byCountry };
  }
  const bounds = histogramBounds(base.priceMin, base.priceMax);
  const ranks = total <= MAX_RESULT_WINDOW ? quartileRanks(total) : [];
  const answers = await cluster.searchMany(
    [
      ...(bounds.length > 1 ? [histogramBody(query, bounds)] : []),
      ...ranks.map((rank) => priceAtRankBody(query, rank)),
    ],
    deadline,
    query,
  );
  const histogram =
    bounds.length > 1 ? bucketCounts(bounds, answers.shift()!) : [{ ...bounds[0]!, count: total }];
  const [p25, p50, p75] = ranks.length
    ? quartilesFromRanks(total, new Map(ranks.map((rank, i) => [rank, priceAtRank(answers[i]!)])))
    : [25, 50, 75].map((p) => estimatedPercentile(aggs, p));
  return { ...base, priceMedian: p50!, priceP25: p25!, priceP75: p75!, histogram, byCountry };
}
