/** Price arithmetic shared by the engines, so both round and bucket the same way. */
import type { HistogramBucket } from './engine.js';

export const HISTOGRAM_BUCKETS = 20;

/** EUR amounts are shown with 2 decimals. */
export const roundPrice = (value: number): number => Math.round(value * 100) / 100;

/**
 * Equal-width buckets from lo to hi: HISTOGRAM_BUCKETS of them, or one when every price is the
 * same. Bucket i holds lo + i*w <= price < lo + (i+1)*w; the last one also holds hi.
 */
export function histogramBounds(lo: number, hi: number): { from: number; to: number }[] {
  if (hi <= lo) return [{ from: lo, to: hi }];
  const width = (hi - lo) / HISTOGRAM_BUCKETS;
  return Array.from({ length: HISTOGRAM_BUCKETS }, (_, i) => ({
    from: roundPrice(lo + i * width),
    to: i === HISTOGRAM_BUCKETS - 1 ? hi : roundPrice(lo + (i + 1) * width),
  }));
}

/** The quartiles the statistics report, as fractions. */
export const QUARTILES = [0.25, 0.5, 0.75] as const;

/**
 * The 0-based ranks, in price order, whose prices give the quartiles of `total` prices as
 * PostgreSQL's percentile_cont computes them: each lies at position p × (total − 1), between the
 * prices at its floor and its ceiling.
 */
export function quartileRanks(total: number): number[] {
  const ranks = QUARTILES.flatMap((p) => {
    const position = p * (total - 1);
    return [Math.floor(position), Math.ceil(position)];
  });
  return [...new Set(ranks)].sort((a, b) => a - b);
}

/** The quartiles (p25, p50, p75) from the prices at quartileRanks(total), rounded to cents. */
export function quartilesFromRanks(total: number, priceAt: Map<number, number>): number[] {
  return QUARTILES.map((p) => {
    const position = p * (total - 1);
    const lower = priceAt.get(Math.floor(position))!;
    const upper = priceAt.get(Math.ceil(position))!;
    return roundPrice(lower + (upper - lower) * (position - Math.floor(position)));
  });
}

/** The histogram of prices known one by one: each in its bucket of histogramBounds(lo, hi). */
export function bucketPrices(prices: number[], lo: number, hi: number): HistogramBucket[] {
  const bounds = histogramBounds(lo, hi);
  const counts = bounds.map(() => 0);
  for (const price of prices) {
    const i = bounds.findIndex((b, n) => price < b.to || n === bounds.length - 1);
    counts[i] = (counts[i] ?? 0) + 1;
  }
  return bounds.map((b, i) => ({ ...b, count: counts[i]! }));
}
