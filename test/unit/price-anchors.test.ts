import { describe, expect, it } from 'vitest';
import { PriceAnchors } from '../../src/search/opensearch/price-anchors.js';

describe('PriceAnchors', () => {
  it('gives the price at the highest rank known at or before an offset', () => {
    const anchors = new PriceAnchors(100);
    expect(anchors.priceAtOrBefore(5_000)).toBeUndefined();
    anchors.add(19, 1_000);
    anchors.add(219, 2_500);
    anchors.add(439, 4_000);
    expect(anchors.priceAtOrBefore(18)).toBeUndefined();
    expect(anchors.priceAtOrBefore(19)).toBe(1_000);
    expect(anchors.priceAtOrBefore(300)).toBe(2_500);
    expect(anchors.priceAtOrBefore(420)).toBe(2_500); // 439 is past it, in the same bucket
    expect(anchors.priceAtOrBefore(9_999)).toBe(4_000);
  });

  it('keeps one rank per bucket, the lowest, which more offsets of the bucket can use', () => {
    const anchors = new PriceAnchors(100);
    anchors.add(159, 3_000);
    anchors.add(119, 2_000);
    anchors.add(139, 2_500);
    expect(anchors.priceAtOrBefore(150)).toBe(2_000);
    expect(anchors.priceAtOrBefore(125)).toBe(2_000);
  });
});
