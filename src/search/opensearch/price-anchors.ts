/** A hit a query's pages reached: its rank (0 the first, in price order) and sort values. */
export interface PriceAnchor {
  rank: number;
  /** [price in whole cents, id]: what pages in price order sort on */
  values: [number, number];
}

/**
 * Hits a query's result set reached at the ranks its pages were served at. A later jump deep into
 * the set starts after the highest one at or before its page: the items up to that hit are counted,
 * and the page is read among those after it from what is left of its offset (OpenSearchEngine),
 * where an offset alone has each shard sort its way past every earlier item. A hit says nothing the
 * stock must still agree with: the count is taken as the stock is, so a stale one only makes the
 * page cost another round trip, never differ.
 *
 * One per rank bucket (a few hundred ranks), so a query keeps a few dozen however it is paged.
 */
export class PriceAnchors {
  private readonly byBucket = new Map<number, PriceAnchor>();

  constructor(private readonly bucketRanks: number) {}

  /** a bucket keeps its lowest rank, which more of its offsets can start from */
  add(anchor: PriceAnchor): void {
    const bucket = Math.floor(anchor.rank / this.bucketRanks);
    const kept = this.byBucket.get(bucket);
    if (!kept || anchor.rank < kept.rank) this.byBucket.set(bucket, anchor);
  }

  /** the hit at the highest rank known before `offset` (none: undefined) */
  before(offset: number): PriceAnchor | undefined {
    for (let bucket = Math.floor(offset / this.bucketRanks); bucket >= 0; bucket--) {
      const kept = this.byBucket.get(bucket);
      if (kept && kept.rank < offset) return kept;
    }
    return undefined;
  }
}
