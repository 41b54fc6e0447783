import type { Condition } from '../../db/schema.js';
import type { DetailedPriceStats, PriceSummary } from '../engine.js';
import { averagePrice, bucketPrices, quartilesFromRanks } from '../price-math.js';
import { totalOf, type SearchAnswer } from './answers.js';

/** The doc values a hit carries for its result set's figures (queries.ts hitsFiguresBody). */
export const FIGURE_FIELDS = ['price_cents', 'condition', 'country_code', 'vendor_id'] as const;

/** Count, min, max and sum of whole cents, grown one price at a time. */
class CentsTally {
  count = 0;
  min = Infinity;
  max = -Infinity;
  sum = 0n;

  add(cents: number): void {
    this.count++;
    this.min = Math.min(this.min, cents);
    this.max = Math.max(this.max, cents);
    this.sum += BigInt(cents);
  }

  summary(): PriceSummary {
    return {
      count: this.count,
      priceMin: this.min / 100,
      priceMax: this.max / 100,
      priceAvg: averagePrice(this.sum, this.count),
    };
  }
}

const tallied = (groups: Map<string, CentsTally>): Record<string, PriceSummary> =>
  Object.fromEntries([...groups].map(([key, tally]) => [key, tally.summary()]));

/**
 * Every figure of a result set from its hits, when they are all of it (read in price order, with
 * FIGURE_FIELDS): the same arithmetic in whole cents as the aggregations, without asking the cluster
 * to aggregate a handful of items. Null when the hits are not the whole set, or lack a field (an
 * index of an older mapping): the figures are then asked of the cluster.
 */
export function statsOfHits(answer: SearchAnswer): DetailedPriceStats | null {
  const total = totalOf(answer);
  const hits = answer.hits.hits;
  if (total === 0 || hits.length !== total) return null;
  const all = new CentsTally();
  const byCondition = new Map<string, CentsTally>();
  const byCountry = new Map<string, CentsTally>();
  const sellers = new Set<unknown>();
  const prices: number[] = [];
  const tallyOf = (groups: Map<string, CentsTally>, key: string) => {
    const found = groups.get(key);
    if (found) return found;
    const tally = new CentsTally();
    groups.set(key, tally);
    return tally;
  };
  for (const hit of hits) {
    const [cents] = (hit.fields?.price_cents ?? []) as number[];
    const [condition] = (hit.fields?.condition ?? []) as string[];
    const [country] = (hit.fields?.country_code ?? []) as string[];
    const [seller] = hit.fields?.vendor_id ?? [];
    if (cents === undefined || condition === undefined || country === undefined || seller === undefined) {
      return null;
    }
    all.add(cents);
    tallyOf(byCondition, condition).add(cents);
    tallyOf(byCountry, country).add(cents);
    sellers.add(seller);
    prices.push(cents / 100);
  }
  const overall = all.summary();
  const [p25, p50, p75] = quartilesFromRanks(total, new Map(prices.map((price, rank) => [rank, price])));
  return {
    totalResults: total,
    priceMin: overall.priceMin,
    priceMax: overall.priceMax,
    priceAvg: overall.priceAvg,
    totalSellers: sellers.size,
    byCondition: tallied(byCondition) as Partial<Record<Condition, PriceSummary>>,
    priceMedian: p50!,
    priceP25: p25!,
    priceP75: p75!,
    histogram: bucketPrices(prices, overall.priceMin, overall.priceMax),
    byCountry: tallied(byCountry),
  };
}
