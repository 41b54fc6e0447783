/**
 * Prices a query's result set reached at ranks its pages were served at: the hit at `rank` (0 the
 * first, in price order) cost `cents`. A later jump deep into the set starts from the highest one at
 * or before its page: the items cheaper than that price are counted, and the page is read among the
 * others from what is left of its offset (OpenSearchEngine), where an offset alone has each shard
 * sort its way past every earlier item. A price says nothing the stock must still agree with: the
 * count is taken as the stock is, so a stale one only makes the page cost more, never differ.
 *
 * One per rank bucket (a few hundred ranks), so a query keeps a few dozen however it is paged.
 */
export class PriceAnchors {
  private readonly byBucket = new Map<number, { rank: number; cents: number }>();

  constructor(private readonly bucketRanks: number) {}

  /** the hit at `rank` cost `cents`; a bucket keeps its lowest rank, usable by more of its offsets */
  add(rank: number, cents: number): void {
    const bucket = Math.floor(rank / this.bucketRanks);
    const kept = this.byBucket.get(bucket);
    if (!kept || rank < kept.rank) this.byBucket.set(bucket, { rank, cents });
  }

  /** the price at the highest rank known at or before `offset` (none: undefined) */
  priceAtOrBefore(offset: number): number | undefined {
    for (let bucket = Math.floor(offset / this.bucketRanks); bucket >= 0; bucket--) {
      const kept = this.byBucket.get(bucket);
      if (kept && kept.rank <= offset) return kept.cents;
    }
    return undefined;
  }
}
