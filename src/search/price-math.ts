/** Price arithmetic shared by the engines, so both round and bucket the same way. */

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
