/** Price arithmetic shared by the engines, so both round and bucket the same way. */
import type { HistogramBucket } from './engine.js';

export const HISTOGRAM_BUCKETS = 20;

/** EUR amounts are shown with 2 decimals. */
export const roundPrice = (value: number): number => Math.round(value * 100) / 100;

/**
 * A price in whole cents. Exact for every price of two decimals read as a double: the nearest
 * double to 15.73 is within far less than half a cent of it (numeric(12, 2) stays below 2^40 cents).
 */
export const toCents = (price: number): number => Math.round(price * 100);

/** A sum of prices as PostgreSQL writes a numeric ('66.10', '-0.5', '12'), in whole cents, exactly. */
export function centsOfNumeric(text: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{0,2}))?$/.exec(text.trim());
  if (!match) throw new Error(`not an amount of cents: ${text}`);
  const cents = BigInt(match[2]!) * 100n + BigInt((match[3] ?? '').padEnd(2, '0'));
  return match[1] ? -cents : cents;
}

/**
 * The average of `count` prices whose exact sum is `sumCents`, rounded to cents half away from
 * zero as PostgreSQL's numeric rounds, in integers: exact for any sum. Never a quotient of doubles:
 * 66.10 / 4 is 16.524999… as a double, which rounds down where the exact 16.525 rounds up.
 */
export function averagePrice(sumCents: bigint | number, count: number): number {
  const sum = BigInt(sumCents);
  const n = BigInt(count);
  const magnitude = sum < 0n ? -sum : sum;
  const cents = (2n * magnitude + n) / (2n * n);
  return Number(sum < 0n ? -cents : cents) / 100;
}

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

/**
 * The quartiles (p25, p50, p75) from the prices at quartileRanks(total), to the cent exactly:
 * interpolated in whole quarters of a cent (a quartile's position falls on a quarter), rounded half
 * up as PostgreSQL's numeric rounds a price (prices are never negative). Never in doubles: halfway
 * between 16.02 and 16.03 is 16.025, which as a double is 16.02499… and would round down.
 */
export function quartilesFromRanks(total: number, priceAt: Map<number, number>): number[] {
  return QUARTILES.map((p) => {
    const position = p * (total - 1);
    const lower = toCents(priceAt.get(Math.floor(position))!);
    const upper = toCents(priceAt.get(Math.ceil(position))!);
    const quarters = Math.round((position - Math.floor(position)) * 4);
    return Math.floor((4 * lower + (upper - lower) * quarters + 2) / 4) / 100;
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
