import { describe, expect, it } from 'vitest';
import { PriceAnchors, type PriceAnchor } from '../../src/search/opensearch/price-anchors.js';

const at = (rank: number, cents: number): PriceAnchor => ({ rank, values: [cents, rank + 1_000] });

describe('PriceAnchors', () => {
  it('gives the hit at the highest rank known before an offset', () => {
    const anchors = new PriceAnchors(100);
    expect(anchors.before(5_000)).toBeUndefined();
    anchors.add(at(19, 1_000));
    anchors.add(at(219, 2_500));
    anchors.add(at(439, 4_000));
    expect(anchors.before(19)).toBeUndefined();
    expect(anchors.before(20)).toEqual(at(19, 1_000));
    expect(anchors.before(300)).toEqual(at(219, 2_500));
    expect(anchors.before(420)).toEqual(at(219, 2_500)); // 439 is past it, in the same bucket
    expect(anchors.before(9_999)).toEqual(at(439, 4_000));
  });

  it('keeps one rank per bucket, the lowest, which more offsets of the bucket can start from', () => {
    const anchors = new PriceAnchors(100);
    anchors.add(at(159, 3_000));
    anchors.add(at(119, 2_000));
    anchors.add(at(139, 2_500));
    expect(anchors.before(150)).toEqual(at(119, 2_000));
    expect(anchors.before(120)).toEqual(at(119, 2_000));
  });
});
